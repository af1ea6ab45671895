import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { controlClass, labelClass } from "~/ui/form";
import { card, secondaryButton } from "~/ui/styles";
import { OfferForm } from "./OfferForm";
import { OfferPanel } from "./OfferPanel";
import { day, type Application, type Viewer } from "./placement-view";
import { applicationStages, sourceNames, stageNames } from "./stages";

/** Whether the learner is shown the form for the offer: none yet while it may come, or one to correct. */
function offerFormFits({ offer, stage }: Application): boolean {
  return (
    offer?.status === "rejected" ||
    (!offer && ["offered", "interview", "shortlisted", "applied"].includes(stage)) ||
    (offer?.status === "pending" && stage === "offered")
  );
}

/** One application: its stage, its history, its offer; the forms that move it along. */
export function ApplicationCard({ application, viewer }: { application: Application; viewer: Viewer }) {
  const ids = useId();
  const { offer } = application;
  const stage =
    application.stage === "interview" ? `Interview round ${application.interviewRound}` : stageNames[application.stage];
  return (
    <li className={card} data-testid="application">
      <h3 className="text-lg font-bold text-slate-900">
        {application.company} — {application.role}
      </h3>
      <p className="text-sm text-slate-700">
        {sourceNames[application.source]} · added by {application.addedBy}
      </p>
      <p className="mt-2">
        Stage:{" "}
        <span className="font-semibold" data-testid="stage">
          {stage}
        </span>
      </p>
      <ActionForm
        key={`${application.stage}-${application.interviewRound}`}
        intent="move-application"
        className="mt-3 flex flex-wrap items-end gap-2"
        label={`Move ${application.company}`}
      >
        <input type="hidden" name="applicationId" value={application.id} />
        <div>
          <label htmlFor={`${ids}-stage`} className={labelClass}>
            Move to
          </label>
          <select id={`${ids}-stage`} name="stage" defaultValue={application.stage} className={controlClass}>
            {applicationStages.map((value) => (
              <option key={value} value={value}>
                {value === "interview" ? "Interview (next round)" : stageNames[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton}>
          Move
        </button>
      </ActionForm>

      {offer && <OfferPanel application={application} offer={offer} viewer={viewer} />}

      {viewer === "learner" && offerFormFits(application) && <OfferForm application={application} />}

      {application.history.length > 1 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-semibold text-blue-800">History</summary>
          <ol className="mt-2 space-y-1 text-slate-700">
            {application.history.map((entry, index) => (
              <li key={index}>
                {entry.stage === "interview" ? `Interview round ${entry.round}` : stageNames[entry.stage]} — {entry.by},{" "}
                {day(entry.at)}
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
