import { useId } from "react";
import { formatDocumentDate } from "~/documents/words";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { card, primaryButton, secondaryButton } from "~/ui/styles";
import { type InstalmentState } from "./fees";
import { formatDateTime } from "~/core/dates";
import { formatRupees } from "~/core/money";
import type { LearnerPlacement } from "./learner-placement.server";
import { applicationStages, graduationNames, graduations, sourceNames, stageNames } from "./stages";

type Enrolment = LearnerPlacement["enrolments"][number];
type Application = LearnerPlacement["applications"][number];

/** Who is looking: the learner on their own page, or staff (admins may also waive). */
export type Viewer = "learner" | "staff" | "admin";

const stateNames: Record<InstalmentState, string> = {
  upcoming: "Upcoming",
  due: "Due",
  overdue: "Overdue",
  paid: "Paid",
  paused: "Paused",
  waived: "Waived",
};

const stateStyle: Record<InstalmentState, string> = {
  upcoming: "bg-slate-100 text-slate-800",
  due: "bg-amber-100 text-amber-900",
  overdue: "bg-red-100 text-red-900",
  paid: "bg-green-100 text-green-900",
  paused: "bg-blue-100 text-blue-900",
  waived: "bg-slate-200 text-slate-900",
};

const day = (date: string) => (date ? formatDocumentDate(date.slice(0, 10)) : "");

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
  const staff = viewer !== "learner";
  const { agreement } = enrolment;
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
        {staff && (
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

      {agreement && (
        <div className="mt-6">
          <h4 className="text-lg font-bold text-slate-900">Agreement</h4>
          <div className="mt-2 space-y-2 rounded-md bg-slate-50 p-4 text-sm whitespace-pre-line text-slate-800">
            {agreement.text}
          </div>
          {agreement.acceptedAt ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="agreement-accepted">
              Accepted on {day(agreement.acceptedAt)}.
            </p>
          ) : viewer === "learner" ? (
            <ActionForm intent="accept-agreement" className="mt-3" label="Accept the agreement">
              <input type="hidden" name="enrolmentId" value={enrolment.id} />
              <button type="submit" className={primaryButton}>
                I accept this agreement
              </button>
            </ActionForm>
          ) : (
            <p className="mt-2 text-sm text-slate-700">Not accepted yet.</p>
          )}
          {agreement.decisionText && (
            <p className="mt-3 font-semibold text-slate-900" data-testid="fee-decision">
              {agreement.decisionText}
            </p>
          )}
        </div>
      )}

      {enrolment.instalments.length > 0 && <Instalments enrolment={enrolment} viewer={viewer} />}
    </section>
  );
}

function Instalments({ enrolment, viewer }: { enrolment: Enrolment; viewer: Viewer }) {
  const ids = useId();
  const staff = viewer !== "learner";
  return (
    <div className="mt-6">
      <h4 className="text-lg font-bold text-slate-900">Instalments</h4>
      <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Instalments table">
        <table className="w-full min-w-[36rem] text-left text-sm" data-testid="instalments">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-3">
                No.
              </th>
              <th scope="col" className="py-2 pr-3">
                Due
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Fee
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                GST
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Total
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Paid
              </th>
              <th scope="col" className="py-2">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {enrolment.instalments.map((instalment) => (
              <tr key={instalment.id} className="border-b border-slate-200 align-top" data-testid="instalment">
                <td className="py-2 pr-3">{instalment.number}</td>
                <td className="py-2 pr-3">{day(instalment.dueDate)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.feePaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.gstPaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.totalPaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.paidPaise)}</td>
                <td className="py-2">
                  <span className={`rounded px-2 py-0.5 font-semibold ${stateStyle[instalment.state]}`}>
                    {stateNames[instalment.state]}
                  </span>
                  {instalment.waiver && (
                    <span className="block text-slate-700">
                      Waived by {instalment.waiver.by}: {instalment.waiver.reason}
                    </span>
                  )}
                  {instalment.payments.map((payment, index) => (
                    <span key={index} className="block text-slate-700">
                      {formatRupees(payment.amountPaise)} on {day(payment.paidOn)} ({payment.reference})
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {enrolment.pauses.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          {enrolment.pauses.map((pause, index) => (
            <li key={index}>
              Paused until {day(pause.until)}: {pause.reason} ({pause.by})
            </li>
          ))}
        </ul>
      )}
      {staff && (
        <div className="mt-4 grid gap-4 lg:grid-cols-3">
          <ActionForm
            intent="record-payment"
            className="space-y-2 rounded-md border border-slate-200 p-3"
            label="Record a payment"
          >
            <h5 className="font-semibold text-slate-900">Record a payment</h5>
            <InstalmentSelect id={`${ids}-pay`} enrolment={enrolment} />
            <Field id={`${ids}-amount`} name="amount" label="Amount (₹)" inputMode="decimal" required />
            <Field id={`${ids}-paid-on`} name="paidOn" label="Paid on" type="date" required />
            <Field id={`${ids}-reference`} name="reference" label="Reference" required maxLength={120} />
            <button type="submit" className={primaryButton}>
              Record payment
            </button>
          </ActionForm>
          <ActionForm
            intent="pause-fees"
            className="space-y-2 rounded-md border border-slate-200 p-3"
            label="Pause fees"
          >
            <h5 className="font-semibold text-slate-900">Pause fees</h5>
            <input type="hidden" name="enrolmentId" value={enrolment.id} />
            <Field id={`${ids}-until`} name="until" label="Until" type="date" required />
            <Field id={`${ids}-pause-reason`} name="reason" label="Reason" required maxLength={500} />
            <button type="submit" className={secondaryButton}>
              Pause
            </button>
          </ActionForm>
          {viewer === "admin" && (
            <ActionForm
              intent="waive-instalment"
              className="space-y-2 rounded-md border border-slate-200 p-3"
              label="Waive an instalment"
            >
              <h5 className="font-semibold text-slate-900">Waive an instalment</h5>
              <InstalmentSelect id={`${ids}-waive`} enrolment={enrolment} />
              <Field id={`${ids}-waive-reason`} name="reason" label="Reason" required maxLength={500} />
              <button type="submit" className={secondaryButton}>
                Waive
              </button>
            </ActionForm>
          )}
        </div>
      )}
    </div>
  );
}

function InstalmentSelect({ id, enrolment }: { id: string; enrolment: Enrolment }) {
  const open = enrolment.instalments.filter((i) => i.state !== "paid" && i.state !== "waived");
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Instalment
      </label>
      <select id={id} name="instalmentId" className={controlClass} required>
        {open.map((i) => (
          <option key={i.id} value={i.id}>
            {i.number}: {formatRupees(i.totalPaise - i.paidPaise)} left, due {day(i.dueDate)}
          </option>
        ))}
      </select>
    </div>
  );
}

function offerStatusWords(offer: NonNullable<Application["offer"]>): string {
  if (offer.status === "verified") return `Verified by ${offer.reviewedBy} on ${day(offer.reviewedAt ?? "")}`;
  if (offer.status === "rejected") return `Rejected by ${offer.reviewedBy}: ${offer.rejectReason}`;
  return "Waiting for the institute to verify it";
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

      {offer && (
        <div className="mt-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="offer">
          <p className="font-semibold text-slate-900">Offer</p>
          <p>
            Fixed CTC {formatRupees(offer.fixedCtcPaise)} a year
            {offer.variableCtcPaise > 0 && `, variable ${formatRupees(offer.variableCtcPaise)}`} · {offer.location} ·
            offered {day(offer.offerDate)} · joining {day(offer.joiningDate)}
          </p>
          <p className="mt-1" data-testid="offer-status">
            {offerStatusWords(offer)}
          </p>
          <a
            href={`/api/placement/offers/${encodeURIComponent(application.id)}/file`}
            className="mt-1 inline-block font-semibold text-blue-800 underline"
          >
            Download the offer letter ({offer.fileName})
          </a>
          {viewer !== "learner" && offer.status === "pending" && (
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <ActionForm intent="verify-offer" label={`Verify the offer from ${application.company}`}>
                <input type="hidden" name="applicationId" value={application.id} />
                <button type="submit" className={primaryButton}>
                  Verify offer
                </button>
              </ActionForm>
              <ActionForm
                intent="reject-offer"
                className="flex flex-wrap items-end gap-2"
                label={`Reject the offer from ${application.company}`}
              >
                <input type="hidden" name="applicationId" value={application.id} />
                <Field id={`${ids}-reject`} name="reason" label="Reason for rejecting" required maxLength={500} />
                <button type="submit" className={secondaryButton}>
                  Reject offer
                </button>
              </ActionForm>
            </div>
          )}
        </div>
      )}

      {viewer === "learner" &&
        (offer?.status === "rejected" ||
          (!offer && ["offered", "interview", "shortlisted", "applied"].includes(application.stage)) ||
          (offer?.status === "pending" && application.stage === "offered")) && (
          <details className="mt-4" open={(application.stage === "offered" && !offer) || offer?.status === "rejected"}>
            <summary className="cursor-pointer font-semibold text-blue-800">
              {offer ? "Correct the offer" : "Record the offer"}
            </summary>
            <ActionForm
              intent="record-offer"
              withFile
              className="mt-3 grid gap-3 sm:grid-cols-2"
              label={`Offer from ${application.company}`}
            >
              <input type="hidden" name="applicationId" value={application.id} />
              <Field id={`${ids}-fixed`} name="fixedCtc" label="Fixed CTC a year (₹)" inputMode="decimal" required />
              <Field
                id={`${ids}-variable`}
                name="variableCtc"
                label="Variable pay a year (₹, optional)"
                inputMode="decimal"
              />
              <Field id={`${ids}-location`} name="location" label="Location" required maxLength={120} />
              <Field id={`${ids}-offer-date`} name="offerDate" label="Offer date" type="date" required />
              <Field id={`${ids}-joining`} name="joiningDate" label="Joining date" type="date" required />
              <Field
                id={`${ids}-file`}
                name="offerLetter"
                label="Offer letter (PDF, at most 5 MB)"
                type="file"
                accept="application/pdf"
                required
              />
              <div className="sm:col-span-2">
                <button type="submit" className={primaryButton}>
                  Save the offer
                </button>
              </div>
            </ActionForm>
          </details>
        )}

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
