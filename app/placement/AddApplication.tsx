import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { card, primaryButton } from "~/ui/styles";
import type { Viewer } from "./placement-view";
import { sourceNames } from "./stages";

/** The form that adds an application (learners) or a referral (staff). */
export function AddApplication({ viewer, learnerId }: { viewer: Viewer; learnerId?: string }) {
  const ids = useId();
  const learner = viewer === "learner";
  return (
    <ActionForm
      intent={learner ? "add-application" : "add-referral"}
      className={`${card} grid gap-3 sm:grid-cols-3`}
      label={learner ? "Add an application" : "Add a referral"}
    >
      <h3 className="text-lg font-bold text-slate-900 sm:col-span-3">
        {learner ? "Add an application" : "Add a referral"}
      </h3>
      {learnerId && <input type="hidden" name="learnerId" value={learnerId} />}
      <Field id={`${ids}-company`} name="company" label="Company" required maxLength={120} />
      <Field id={`${ids}-role`} name="role" label="Role" required maxLength={120} />
      {learner ? (
        <div>
          <label htmlFor={`${ids}-source`} className={labelClass}>
            Source
          </label>
          <select id={`${ids}-source`} name="source" className={controlClass} defaultValue="own">
            <option value="own">{sourceNames.own}</option>
            <option value="referral">{sourceNames.referral}</option>
          </select>
        </div>
      ) : (
        <span />
      )}
      <div className="sm:col-span-3">
        <button type="submit" className={primaryButton}>
          {learner ? "Add application" : "Add referral"}
        </button>
      </div>
    </ActionForm>
  );
}
