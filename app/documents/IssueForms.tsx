import { useState } from "react";
import { Link } from "react-router";
import { primaryButton, secondaryButton } from "~/ui/styles";
import {
  certificateInputs,
  certificateRows,
  emptyOfferLetter,
  offerLetterInputs,
  offerLetterRows,
  type CertificateDraft,
  type OfferLetterDraft,
} from "./document-inputs";
import { DocumentFields } from "./DocumentFields";
import { signatorySettingsPath } from "./settings-rules";

/** Above the issue forms while nobody is set to sign: the server refuses to issue until then. */
export function SignatoryNeeded() {
  return (
    <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-slate-900 lg:col-span-2">
      <Link to={signatorySettingsPath} className="font-semibold underline">
        Set who signs documents
      </Link>{" "}
      first.
    </p>
  );
}

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
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-lg font-bold text-slate-900">Certificate (PDF)</legend>
      <DocumentFields inputs={certificateInputs} rows={certificateRows} draft={draft} onDraft={onDraft} />
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

/** The offer letter as a document (admins): position, terms, body; 'Issue offer letter'. */
export function OfferLetterForm({
  today,
  busy,
  onIssue,
}: {
  today: string;
  busy: boolean;
  /** Submits the fields; `done` clears the form after a success. */
  onIssue: (fields: OfferLetterDraft, done: () => void) => void;
}) {
  const [draft, setDraft] = useState(() => emptyOfferLetter(today));
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-lg font-bold text-slate-900">Offer letter (PDF)</legend>
      <DocumentFields inputs={offerLetterInputs} rows={offerLetterRows} draft={draft} onDraft={setDraft} />
      <button
        type="button"
        className={primaryButton}
        disabled={busy}
        onClick={() => onIssue(draft, () => setDraft(emptyOfferLetter(today)))}
      >
        Issue offer letter
      </button>
    </fieldset>
  );
}
