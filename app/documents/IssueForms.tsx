import { useId, useState } from "react";
import { Field, controlClass, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { documentLimits } from "./document-fields";

/** A certificate's fields as the form holds them (the intent's field names). */
export interface CertificateDraft {
  title: string;
  description: string;
  issuedOn: string;
  validUntil: string;
  hours: string;
}

export const emptyCertificate = (today: string): CertificateDraft => ({
  title: "",
  description: "",
  issuedOn: today,
  validUntil: "",
  hours: "",
});

/**
 * The certificate's fields, and the buttons that issue it: to the learner of the page, or (in
 * the workspace) to the ticked learners or all matching ones, each after a confirmation there.
 */
export function CertificateForm({
  draft,
  onDraft,
  busy,
  actions,
}: {
  draft: CertificateDraft;
  onDraft: (draft: CertificateDraft) => void;
  busy: boolean;
  /** The issue buttons: label and what each does. */
  actions: { label: React.ReactNode; primary?: boolean; onClick: () => void }[];
}) {
  const ids = useId();
  const set = (name: keyof CertificateDraft) => (event: { target: { value: string } }) =>
    onDraft({ ...draft, [name]: event.target.value });
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-lg font-bold text-slate-900">Certificate as a PDF</legend>
      <Field
        id={`${ids}-title`}
        label="Title"
        value={draft.title}
        onChange={set("title")}
        maxLength={documentLimits.title}
        placeholder="Full Stack Web Development"
        required
      />
      <Field
        multiline
        id={`${ids}-description`}
        label="Short description (optional)"
        value={draft.description}
        onChange={set("description")}
        maxLength={documentLimits.description}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id={`${ids}-issued`} label="Issue date" type="date" value={draft.issuedOn} onChange={set("issuedOn")} />
        <Field
          id={`${ids}-valid`}
          label="Valid until (optional)"
          type="date"
          value={draft.validUntil}
          onChange={set("validUntil")}
        />
        <Field
          id={`${ids}-hours`}
          label="Hours (optional)"
          inputMode="numeric"
          value={draft.hours}
          onChange={set("hours")}
          maxLength={6}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        {actions.map((action, index) => (
          <button
            key={index}
            type="button"
            className={action.primary ? primaryButton : secondaryButton}
            disabled={busy}
            onClick={action.onClick}
          >
            {action.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** An offer letter's fields as the form holds them (the intent's field names). */
interface OfferDraft {
  title: string;
  issuedOn: string;
  startDate: string;
  location: string;
  payKind: string;
  payAmount: string;
  payPeriod: string;
  replyBy: string;
  body: string;
}

/** The offer letter as a document (admins): position, terms, body; 'Issue offer letter'. */
export function OfferLetterForm({
  today,
  busy,
  onIssue,
}: {
  today: string;
  busy: boolean;
  /** Submits the fields; `done` clears the form after a success. */
  onIssue: (fields: OfferDraft, done: () => void) => void;
}) {
  const ids = useId();
  const empty: OfferDraft = {
    title: "",
    issuedOn: today,
    startDate: "",
    location: "",
    payKind: "stipend",
    payAmount: "",
    payPeriod: "month",
    replyBy: "",
    body: "",
  };
  const [draft, setDraft] = useState(empty);
  const set = (name: keyof OfferDraft) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [name]: event.target.value });
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-lg font-bold text-slate-900">Offer letter as a PDF</legend>
      <Field
        id={`${ids}-position`}
        label="Position"
        value={draft.title}
        onChange={set("title")}
        maxLength={documentLimits.title}
        required
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${ids}-issued`} label="Letter date" type="date" value={draft.issuedOn} onChange={set("issuedOn")} />
        <Field
          id={`${ids}-start`}
          label="Start date"
          type="date"
          value={draft.startDate}
          onChange={set("startDate")}
          required
        />
        <Field
          id={`${ids}-location`}
          label="Location"
          value={draft.location}
          onChange={set("location")}
          maxLength={documentLimits.location}
          required
        />
        <Field
          id={`${ids}-reply`}
          label="Reply by"
          type="date"
          value={draft.replyBy}
          onChange={set("replyBy")}
          required
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor={`${ids}-pay-kind`} className={labelClass}>
            Pay
          </label>
          <select id={`${ids}-pay-kind`} className={controlClass} value={draft.payKind} onChange={set("payKind")}>
            <option value="stipend">Stipend</option>
            <option value="ctc">CTC</option>
          </select>
        </div>
        <Field
          id={`${ids}-amount`}
          label="Amount in rupees"
          inputMode="decimal"
          value={draft.payAmount}
          onChange={set("payAmount")}
          maxLength={20}
          placeholder="25,000"
          required
        />
        <div>
          <label htmlFor={`${ids}-period`} className={labelClass}>
            Per
          </label>
          <select id={`${ids}-period`} className={controlClass} value={draft.payPeriod} onChange={set("payPeriod")}>
            <option value="month">Month</option>
            <option value="year">Year</option>
          </select>
        </div>
      </div>
      <Field
        multiline
        id={`${ids}-body`}
        label="Letter text"
        className="[&_textarea]:h-32"
        value={draft.body}
        onChange={set("body")}
      />
      <button
        type="button"
        className={primaryButton}
        disabled={busy}
        onClick={() => onIssue(draft, () => setDraft(empty))}
      >
        Issue offer letter
      </button>
    </fieldset>
  );
}
