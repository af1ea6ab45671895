import { useId, useState } from "react";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { controlClass, ErrorLine, Field } from "~/ui/form";
import { card, primaryButton, secondaryButton } from "~/ui/styles";
import { useAction } from "~/ui/use-action";
import type { BatchPageData } from "./batch-page.server";
import type { EnrolmentPlanRow } from "./membership.server";

type Learner = BatchPageData["learners"][number];

const outcomeWords: Record<EnrolmentPlanRow["outcome"], string> = {
  enrol: "Will be enrolled",
  already: "Already in this batch",
  unknown: "No account with this email",
  staff: "A staff account: not enrolled",
};

/** Pasted emails or a CSV file's (read in the browser): a dry run first, then Enrol for those it can. */
export function EnrolByEmail({ batchId }: { batchId: string }) {
  const ids = useId();
  const planning = useAction<{ ok: boolean; message: string; plan?: EnrolmentPlanRow[] }>();
  const enrolling = useAction();
  const [text, setText] = useState("");
  const [plan, setPlan] = useState<EnrolmentPlanRow[] | null>(null);
  const [error, setError] = useState("");
  const enrollable = (plan ?? []).flatMap((row) => (row.outcome === "enrol" ? [row.learnerId] : []));
  const dryRun = () => {
    setError("");
    planning.submit(
      { intent: "plan-enrolment", batchId, emails: text },
      {
        inline: true,
        quiet: true,
        onDone: (answer) => (answer.ok ? setPlan(answer.plan ?? []) : (setPlan(null), setError(answer.message))),
      },
    );
  };
  return (
    <section aria-labelledby={`${ids}-heading`} className={`${card} mt-6`}>
      <h2 id={`${ids}-heading`} className="text-xl font-bold text-slate-900">
        Enrol by email
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Paste emails (one a line, or separated by commas), or choose a CSV file with an email column. Check the list,
        then enrol. At most 500 at once.
      </p>
      <div className="mt-3 grid gap-3">
        <Field
          id={`${ids}-emails`}
          label="Emails"
          multiline
          value={text}
          onChange={(event) => (setText(event.target.value), setPlan(null))}
        />
        <div>
          <label htmlFor={`${ids}-csv`} className="block text-sm font-semibold text-slate-900">
            Or a CSV file
          </label>
          <input
            id={`${ids}-csv`}
            type="file"
            accept=".csv,text/csv"
            className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-blue-800 file:bg-white file:px-4 file:py-2 file:font-semibold file:text-blue-800"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (!file) return;
              if (file.size > 1024 * 1024) return setError("Choose a CSV file of at most 1 MB.");
              void file.text().then((content) => (setText(content), setPlan(null)));
            }}
          />
        </div>
        <div className="flex flex-wrap gap-3">
          <button type="button" className={secondaryButton} onClick={dryRun} disabled={planning.busy}>
            Check the list
          </button>
          {plan && enrollable.length > 0 ? (
            <button
              type="button"
              className={primaryButton}
              disabled={enrolling.busy}
              onClick={() =>
                enrolling.submit(
                  { intent: "enrol-learners", batchId, learnerIds: enrollable.join(",") },
                  { onDone: (answer) => answer.ok && (setPlan(null), setText("")) },
                )
              }
            >
              Enrol {enrollable.length} {enrollable.length === 1 ? "learner" : "learners"}
            </button>
          ) : null}
        </div>
        <ErrorLine message={error} />
        {plan ? (
          <ul className="grid gap-1 text-sm" aria-label="What enrolling would do" data-testid="enrolment-plan">
            {plan.map((row) => (
              <li key={row.email} className="[overflow-wrap:anywhere]">
                <span className="font-semibold">{row.email}</span>: {outcomeWords[row.outcome]}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

/** One learner's row: move to another batch, or remove (after a confirmation). */
function LearnerRow({ learner, otherBatches }: { learner: Learner; otherBatches: BatchPageData["otherBatches"] }) {
  const ids = useId();
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const [target, setTarget] = useState("");
  return (
    <tr className="border-b border-slate-200" data-testid="batch-learner">
      <td className="py-2 pr-3">
        {learner.name}
        <span className="block text-slate-700 [overflow-wrap:anywhere]">{learner.email}</span>
      </td>
      <td className="py-2">
        {learner.agreed ? (
          <span className="text-slate-700">Agreement accepted</span>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${ids}-to`} className="sr-only">
              Move {learner.name} to
            </label>
            <select
              id={`${ids}-to`}
              className={`${controlClass} mt-0 w-auto`}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
            >
              <option value="">Move to…</option>
              {otherBatches.map((batch) => (
                <option key={batch.id} value={batch.id}>
                  {batch.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="font-semibold text-blue-800 underline disabled:opacity-60"
              disabled={!target || action.busy}
              onClick={() =>
                action.submit({ intent: "move-learner", enrolmentId: learner.enrolmentId, toBatchId: target })
              }
            >
              Move
            </button>
            <button type="button" className="font-semibold text-red-700 underline" onClick={() => setConfirming(true)}>
              Remove
            </button>
          </div>
        )}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Remove from batch"
          description={`Remove ${learner.name} from this batch? Assignments they have not started go too.`}
          danger
          busy={action.busy}
          onYes={() =>
            action.submit(
              { intent: "remove-from-batch", enrolmentId: learner.enrolmentId },
              { onDone: () => setConfirming(false) },
            )
          }
        />
      </td>
    </tr>
  );
}

export function LearnersTable({ data }: { data: BatchPageData }) {
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-heading`} className="mt-8">
      <h2 id={`${ids}-heading`} className="text-2xl font-bold text-slate-900">
        Learners ({data.learnerCount.toLocaleString("en-IN")})
      </h2>
      {data.learners.length === 0 ? (
        <p className="mt-2 text-slate-700">Nobody is enrolled yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Learners of this batch">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-3">
                  Learner
                </th>
                <th scope="col" className="py-2">
                  Move or remove
                </th>
              </tr>
            </thead>
            <tbody>
              {data.learners.map((learner) => (
                <LearnerRow key={learner.enrolmentId} learner={learner} otherBatches={data.otherBatches} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
