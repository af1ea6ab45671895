import { useId, useState } from "react";
import { assignmentLimits } from "~/assignments/assignment-rules";
import { enrolLearnersSchema, enrolMatchingSchema } from "~/batches/batch-rules";
import type { AudienceNames } from "~/learners/audience";
import { filterQuery, type LearnerFilter } from "~/learners/learner-filter";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { controlClass, labelClass } from "~/ui/form";
import { secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction, type ActionAnswer } from "~/ui/use-action";
import { downloadSelected } from "./download-selected";
import { useBulkAudience, type BulkAudience, type BulkTarget } from "./use-bulk-audience";

/** A refused bulk enrolment answers with the new count, or the ticked learners who are gone. */
type EnrolAnswer = ActionAnswer & { count?: number; gone?: string[] };

const learners = (n: number) => `${n.toLocaleString("en-IN")} ${n === 1 ? "learner" : "learners"}`;

/**
 * What staff do to many learners at once, beside the list: the ticked learners or every learner
 * matching the filters are enrolled in a batch (after a confirmation naming them, the batch and
 * the count), or exported as the learners' CSV. Each applies to all of them or to none.
 */
export function BulkActions({
  ticked,
  filter,
  total,
  names,
  batches,
  onGone,
}: {
  ticked: ReadonlyMap<string, string>;
  filter: LearnerFilter;
  /** How many learners match, or null past the list's cap. */
  total: number | null;
  names: AudienceNames;
  batches: { id: string; name: string }[];
  /** Ticked learners who no longer exist, to take off the selection. */
  onGone: (ids: string[]) => void;
}) {
  const ids = useId();
  const toast = useToast();
  const audience = useBulkAudience({ ticked, filter, total, names });
  const [chosen, setChosen] = useState<BulkTarget>("ticked");
  const target: BulkTarget = ticked.size > 0 ? chosen : "matching";
  const [exporting, setExporting] = useState(false);

  const exportTicked = async () => {
    setExporting(true);
    const answer = await downloadSelected([...ticked.keys()]);
    setExporting(false);
    if (answer.ok) return toast.success(`Exported ${learners(answer.count)}.`);
    if (answer.gone) onGone(answer.gone);
    toast.error(answer.message);
  };

  const query = filterQuery(filter);
  return (
    <section aria-labelledby={`${ids}-title`} className="mt-3 rounded-xl border border-slate-200 bg-white p-3">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-slate-900">
        Act on learners
      </h3>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2">
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-900">
          <legend className="sr-only">Which learners</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${ids}-target`}
              className="h-4 w-4"
              checked={target === "ticked"}
              disabled={ticked.size === 0}
              onChange={() => setChosen("ticked")}
            />
            {ticked.size > 0 ? `The ${learners(ticked.size)} selected` : "Selected learners (none ticked)"}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${ids}-target`}
              className="h-4 w-4"
              checked={target === "matching"}
              onChange={() => setChosen("matching")}
            />
            {total === null ? "All matching learners" : `All ${learners(total)} matching`}
          </label>
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <EnrolInBatch
            target={target}
            audience={audience}
            nobody={target === "matching" && total === 0}
            batches={batches}
            onGone={onGone}
          />
          {target === "ticked" ? (
            <button type="button" className={secondaryButton} onClick={() => void exportTicked()} disabled={exporting}>
              Export CSV of the selected
            </button>
          ) : (
            // A download, not a page: the browser fetches it itself.
            <a href={`/staff/learners.csv${query ? `?${query}` : ""}`} download className={secondaryButton}>
              Export CSV of all matching
            </a>
          )}
        </div>
      </div>
    </section>
  );
}

/** The Enrol in a batch button and its confirmation: which batch, whom (in words), how many. */
function EnrolInBatch({
  target,
  audience,
  nobody,
  batches,
  onGone,
}: {
  target: BulkTarget;
  audience: BulkAudience;
  /** No learner matches: nothing to confirm. */
  nobody: boolean;
  batches: { id: string; name: string }[];
  onGone: (ids: string[]) => void;
}) {
  const ids = useId();
  const toast = useToast();
  const action = useAction<EnrolAnswer>();
  const [enrolling, setEnrolling] = useState(false);
  const [batchId, setBatchId] = useState("");
  const [error, setError] = useState("");
  const count = audience.count(target);
  const batch = batches.find((one) => one.id === batchId);
  const tooMany = count !== null && count > assignmentLimits.learnersAtOnce;

  const open = () => {
    if (nobody) return toast.error("No learners match the search and filter.");
    toast.clear();
    setError("");
    audience.start(target);
    setEnrolling(true);
  };

  const enrol = () => {
    if (!batch || count === null) return;
    const toTicked = target === "ticked";
    const fields = { batchId: batch.id, ...audience.fields(target) };
    action.submit(toTicked ? { intent: "enrol-learners", ...fields } : { intent: "enrol-matching", ...fields }, {
      inline: true,
      schema: toTicked ? enrolLearnersSchema : enrolMatchingSchema,
      onDone: (answer) => {
        if (answer.ok) {
          setEnrolling(false);
          return toast.success(answer.message);
        }
        if (answer.gone) onGone(answer.gone);
        if (answer.count !== undefined) audience.changed(answer.count);
        setError(answer.message);
      },
    });
  };

  return (
    <>
      <button type="button" className={secondaryButton} onClick={open} disabled={batches.length === 0}>
        Enrol in a batch
      </button>
      <ConfirmDialog
        open={enrolling}
        onOpenChange={(open) => !open && setEnrolling(false)}
        title="Enrol these learners in a batch?"
        description={`${capitalized(audience.words(target))}.`}
        onYes={enrol}
        busy={action.busy || count === null || !batch || tooMany}
        error={tooMany ? `Enrol at most ${assignmentLimits.learnersAtOnce} learners at once.` : error}
        labels={{
          yes: batch && count !== null ? `Enrol ${learners(count)} in ${batch.name}` : "Enrol",
          no: "Cancel",
        }}
        action={action}
      >
        <div className="mt-4">
          <label htmlFor={`${ids}-batch`} className={labelClass}>
            Batch
          </label>
          <select
            id={`${ids}-batch`}
            className={`${controlClass} w-full`}
            value={batchId}
            onChange={(event) => {
              setBatchId(event.target.value);
              setError("");
            }}
          >
            <option value="">Choose a batch</option>
            {batches.map((one) => (
              <option key={one.id} value={one.id}>
                {one.name}
              </option>
            ))}
          </select>
          <p className="mt-2 text-sm text-slate-700">Learners already in the batch are counted, not enrolled twice.</p>
        </div>
      </ConfirmDialog>
    </>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
