import { useId } from "react";
import { formatDateTime } from "~/core/dates";
import { ActionForm } from "~/ui/ActionForm";
import { controlClass, labelClass } from "~/ui/form";
import { card, secondaryButton } from "~/ui/styles";
import { AgreementSection } from "./AgreementSection";
import { Instalments } from "./Instalments";
import { day, type Enrolment, type Viewer } from "./placement-view";
import { graduationNames, graduations } from "./stages";

function YesNoSelect({ id, label, value }: { id: string; label: string; value: boolean }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name="seeking" defaultValue={value ? "yes" : "no"} className={controlClass}>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </select>
    </div>
  );
}

/** 'Seeking a job' while the course runs, and (for staff) the graduation status. */
function EnrolmentStatusForms({ enrolment, viewer }: { enrolment: Enrolment; viewer: Viewer }) {
  const ids = useId();
  return (
    <div className="mt-4 flex flex-wrap items-end gap-4">
      {enrolment.graduation === "in-progress" && (
        <ActionForm
          key={`seeking-${enrolment.seeking}`}
          intent="set-seeking"
          className="flex flex-wrap items-end gap-2"
          label="Seeking a job"
        >
          <input type="hidden" name="enrolmentId" value={enrolment.id} />
          <YesNoSelect id={`${ids}-seeking`} label="Seeking a job after the course?" value={enrolment.seeking} />
          <button type="submit" className={secondaryButton}>
            Save
          </button>
        </ActionForm>
      )}
      {viewer !== "learner" && (
        <ActionForm
          key={`graduation-${enrolment.graduation}`}
          intent="set-graduation"
          className="flex flex-wrap items-end gap-2"
          label="Graduation status"
        >
          <input type="hidden" name="enrolmentId" value={enrolment.id} />
          <div>
            <label htmlFor={`${ids}-graduation`} className={labelClass}>
              Graduation status
            </label>
            <select
              id={`${ids}-graduation`}
              name="graduation"
              defaultValue={enrolment.graduation}
              className={controlClass}
            >
              {graduations.map((value) => (
                <option key={value} value={value}>
                  {graduationNames[value]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={secondaryButton}>
            Save status
          </button>
        </ActionForm>
      )}
    </div>
  );
}

/** One enrolment: the batch, 'seeking a job', graduation, the agreement and its fees. */
export function EnrolmentCard({
  enrolment,
  viewer,
  timeZone,
}: {
  enrolment: Enrolment;
  viewer: Viewer;
  /** The institute's, so the server's render and the browser's agree. */
  timeZone: string;
}) {
  const ids = useId();
  return (
    <section className={card} aria-labelledby={`${ids}-title`} data-testid="enrolment">
      <h3 id={`${ids}-title`} className="text-xl font-bold text-slate-900">
        {enrolment.batchName}
      </h3>
      <p className="mt-1 text-slate-700">
        {enrolment.course} · {day(enrolment.startDate)} to {day(enrolment.endDate)} ·{" "}
        {enrolment.payment === "pap" ? "Pay after placement" : "Paid upfront"}
      </p>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-slate-900">Status</dt>
        <dd data-testid="graduation">{graduationNames[enrolment.graduation]}</dd>
        <dt className="font-semibold text-slate-900">Seeking a job after the course</dt>
        <dd data-testid="seeking">
          {enrolment.seeking ? "Yes" : "No"}
          {enrolment.seekingAtGraduation !== null &&
            ` (at graduation: ${enrolment.seekingAtGraduation ? "yes" : "no"})`}
        </dd>
      </dl>

      <EnrolmentStatusForms enrolment={enrolment} viewer={viewer} />

      {enrolment.history.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-semibold text-blue-800">Changes</summary>
          <ul className="mt-2 space-y-1 text-slate-700">
            {enrolment.history.map((change, index) => (
              <li key={index}>
                {change.field === "seeking" ? `Seeking a job: ${change.value}` : `Status: ${change.value}`} —{" "}
                {change.by}, {formatDateTime(change.at, timeZone)}
              </li>
            ))}
          </ul>
        </details>
      )}

      {enrolment.agreement && (
        <AgreementSection agreement={enrolment.agreement} enrolmentId={enrolment.id} viewer={viewer} />
      )}

      {enrolment.instalments.length > 0 && <Instalments enrolment={enrolment} viewer={viewer} />}
    </section>
  );
}
