import { useId, useState } from "react";
import { Link } from "react-router";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { primaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { Field } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { AdminTools, LearnerDetails } from "./LearnerCardView";
import type { loadLearnerPage } from "./staff-page.server";
import { staffMessages } from "./staff-types";

type LearnerPageData = Awaited<ReturnType<typeof loadLearnerPage>>;

/** One learner: everything staff may see and do for them (the expanded card, on a page of its own). */
export function LearnerPage({ data }: { data: LearnerPageData }) {
  const { learner, timeZone, user, offerLetter, roles } = data;
  const isAdmin = user.level === "admin";
  const ids = useId();
  const toast = useToast();
  const action = useAction();
  const [texts, setTexts] = useState<Record<MessageKind, string>>({ notice: "", task: "", certificate: "" });
  const [clearing, setClearing] = useState<MessageKind | null>(null);

  const send = (kind: MessageKind) => {
    if (!texts[kind].trim()) return toast.error(staffMessages.empty(kind));
    action.submit(
      { intent: "send", learnerId: learner.id, kind, html: texts[kind] },
      { onDone: (answer) => answer.ok && setTexts((t) => ({ ...t, [kind]: "" })) },
    );
  };

  return (
    <>
      <p>
        <Link to="/staff" className="font-semibold text-blue-800 underline">
          Back to the Admin Dashboard
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">{learner.username}</h1>
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_20rem]">
        <section aria-label="Details" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <LearnerDetails learner={learner} isAdmin={isAdmin} timeZone={timeZone} onClear={setClearing} />
          {isAdmin && (
            <AdminTools key={learner.id} learner={learner} offerLetter={offerLetter?.html ?? ""} roles={roles} />
          )}
        </section>
        <aside aria-label={`Send to ${learner.username}`} className="space-y-5">
          {messageKinds.map((kind) => (
            <div key={kind}>
              <Field
                multiline
                id={`${ids}-${kind}`}
                label={kindLabels[kind].title}
                value={texts[kind]}
                onChange={(e) => setTexts((t) => ({ ...t, [kind]: e.target.value }))}
              />
              <button
                type="button"
                className={`${primaryButton} mt-2`}
                disabled={action.busy}
                onClick={() => send(kind)}
              >
                Send {kindLabels[kind].title}
              </button>
            </div>
          ))}
        </aside>
      </div>
      <ConfirmDialog
        open={clearing !== null}
        onOpenChange={(open) => !open && setClearing(null)}
        title={clearing ? `Clear ${kindLabels[clearing].plural}?` : ""}
        description={clearing ? `All ${kindLabels[clearing].plural} of ${learner.username} will be deleted.` : ""}
        onYes={() =>
          clearing &&
          action.submit({ intent: "clear", learnerId: learner.id, kind: clearing }, { onDone: () => setClearing(null) })
        }
        busy={action.busy}
      />
    </>
  );
}
