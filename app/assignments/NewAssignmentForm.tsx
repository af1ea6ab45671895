import { useId, useState } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { ErrorLine, Field, controlClass, labelClass } from "~/ui/form";
import { messageBody, primaryButton, secondaryButton, card } from "~/ui/styles";
import { useAction } from "~/ui/use-action";
import { assignmentLimits, createAssignmentSchema } from "./assignment-rules";
import { handInKinds, handInLabels } from "./statuses";

type Preview = { ok: boolean; message: string; html?: string };

/**
 * Staff set an assignment for a batch: title, instructions (typed or HTML, previewed exactly as
 * learners will see them), the due date and time in the institute's zone, what to hand in, points.
 */
export function NewAssignmentForm({ batchId, today, timeZone }: { batchId: string; today: string; timeZone: string }) {
  const ids = useId();
  const previewing = useAction<Preview>();
  const [instructions, setInstructions] = useState("");
  const [preview, setPreview] = useState<{ text: string; answer: Preview } | null>(null);
  const shown = preview?.text === instructions ? preview.answer : null;
  return (
    <ActionForm
      intent="create-assignment"
      schema={createAssignmentSchema}
      label="New assignment"
      className={`${card} mt-4 grid gap-3 sm:grid-cols-2`}
    >
      <h3 className="text-lg font-bold text-slate-900 sm:col-span-2">New assignment</h3>
      <input type="hidden" name="batchId" value={batchId} />
      <Field
        id={`${ids}-title`}
        name="title"
        label="Title"
        required
        maxLength={assignmentLimits.title}
        className="sm:col-span-2"
      />
      <div className="sm:col-span-2">
        <Field
          id={`${ids}-instructions`}
          name="instructions"
          label="Instructions"
          multiline
          onChange={(event) => setInstructions(event.target.value)}
        />
        <button
          type="button"
          className={`${secondaryButton} mt-2`}
          disabled={previewing.busy || instructions.trim() === ""}
          onClick={() => {
            const text = instructions;
            previewing.submit(
              { intent: "preview-instructions", instructions: text },
              { inline: true, quiet: true, onDone: (answer) => setPreview({ text, answer }) },
            );
          }}
        >
          Preview
        </button>
        {shown && !shown.ok ? <ErrorLine message={shown.message} className="mt-2" /> : null}
        {shown?.ok ? (
          <section
            aria-label="Instructions as learners will see them"
            className="mt-2 rounded-md border border-slate-300 bg-slate-50 p-3"
          >
            <div className="text-xs font-semibold tracking-wide text-slate-700 uppercase">As learners will see it</div>
            <div className={`${messageBody} mt-1`} dangerouslySetInnerHTML={{ __html: shown.html ?? "" }} />
          </section>
        ) : null}
      </div>
      <Field id={`${ids}-date`} name="dueDate" label="Due date" type="date" min={today} required />
      <Field
        id={`${ids}-time`}
        name="dueTime"
        label={`Due time (${timeZone})`}
        type="time"
        defaultValue="18:00"
        required
      />
      <div>
        <label htmlFor={`${ids}-handin`} className={labelClass}>
          Hand in
        </label>
        <select id={`${ids}-handin`} name="handIn" className={controlClass} defaultValue="link">
          {handInKinds.map((kind) => (
            <option key={kind} value={kind}>
              {handInLabels[kind]}
            </option>
          ))}
        </select>
      </div>
      <Field id={`${ids}-points`} name="points" label="Points (optional)" inputMode="numeric" maxLength={5} />
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButton} onClick={() => setPreview(null)}>
          Set assignment
        </button>
      </div>
    </ActionForm>
  );
}
