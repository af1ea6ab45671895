import { useId, useState } from "react";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { Field } from "~/ui/form";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { reissueCertificateSchema, reissueOfferLetterSchema, revokeReasonMax, revokeSchema } from "./correction-fields";
import {
  certificateInputs,
  certificateRows,
  draftOf,
  offerLetterInputs,
  offerLetterRows,
  type OfferLetterDraft,
} from "./document-inputs";
import { DocumentFields } from "./DocumentFields";
import type { DocumentView } from "./documents.server";

const smallButton =
  "rounded-md border border-blue-800 bg-white px-3 py-1 text-sm font-semibold text-blue-800 hover:bg-blue-50";
const smallDangerButton =
  "rounded-md border border-red-700 bg-white px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50";

type Open = "revoke" | "reissue" | null;

/**
 * An admin's Revoke and Reissue for one of a learner's documents, each behind a confirmation
 * that says what happens. A revoked document offers neither: revoking is final.
 */
export function DocumentCorrections({ learnerId, document }: { learnerId: string; document: DocumentView }) {
  const [open, setOpen] = useState<Open>(null);
  if (document.revokedAt) return null;
  const what = document.kind === "certificate" ? "certificate" : "offer letter";
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={smallButton} onClick={() => setOpen("reissue")}>
        Reissue<span className="sr-only"> {document.code}</span>
      </button>
      <button type="button" className={smallDangerButton} onClick={() => setOpen("revoke")}>
        Revoke<span className="sr-only"> {document.code}</span>
      </button>
      {open === "revoke" && (
        <RevokeDialog learnerId={learnerId} document={document} what={what} onClose={() => setOpen(null)} />
      )}
      {open === "reissue" && (
        <ReissueDialog learnerId={learnerId} document={document} what={what} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}

interface DialogProps {
  learnerId: string;
  document: DocumentView;
  what: string;
  onClose: () => void;
}

function RevokeDialog({ learnerId, document, what, onClose }: DialogProps) {
  const ids = useId();
  const action = useAction();
  const toast = useToast();
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const revoke = () => {
    action.submit(
      { intent: "revoke-document", learnerId, documentId: document.id, reason },
      {
        inline: true,
        schema: revokeSchema,
        onDone: (answer) => {
          if (!answer.ok) return setError(answer.message);
          toast.success(answer.message);
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Revoke ${document.code}?`}
      description={`The ${what} "${document.title}" of ${document.holderName} will show as Revoked, with this reason, to anyone who checks it. This can't be undone.`}
      onYes={revoke}
      busy={action.busy}
      error={error}
      danger
      action={action}
    >
      <Field
        multiline
        className="mt-4"
        id={`${ids}-reason`}
        name="reason"
        label="Reason (shown on the verify page)"
        value={reason}
        maxLength={revokeReasonMax}
        onChange={(event) => setReason(event.target.value)}
        aria-invalid={error ? true : undefined}
      />
    </ConfirmDialog>
  );
}

function ReissueDialog({ learnerId, document, what, onClose }: DialogProps) {
  const ids = useId();
  const action = useAction();
  const toast = useToast();
  const [holderName, setHolderName] = useState(document.holderName);
  const [fields, setFields] = useState<Record<string, string>>(() => draftOf(document));
  const [error, setError] = useState("");
  const certificate = document.kind === "certificate";
  const reissue = () =>
    action.submit(
      {
        intent: certificate ? "reissue-certificate" : "reissue-offer-letter",
        learnerId,
        documentId: document.id,
        holderName,
        ...fields,
      },
      {
        inline: true,
        schema: certificate ? reissueCertificateSchema : reissueOfferLetterSchema,
        onDone: (answer) => {
          if (!answer.ok) return setError(answer.message);
          toast.success(answer.message);
          onClose();
        },
      },
    );
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Reissue ${document.code}?`}
      description={`Correct the ${what} below. A new PDF is made with the same code, so its QR code and verify address stay the same; the PDF issued before no longer matches.`}
      onYes={reissue}
      busy={action.busy}
      error={error}
      action={action}
    >
      <div className="mt-4 space-y-3">
        <Field
          id={`${ids}-holderName`}
          name="holderName"
          label="Holder's name"
          maxLength={100}
          value={holderName}
          onChange={(event) => setHolderName(event.target.value)}
        />
        {document.kind === "certificate" ? (
          <DocumentFields inputs={certificateInputs} rows={certificateRows} draft={fields} onDraft={setFields} />
        ) : (
          <DocumentFields
            inputs={offerLetterInputs}
            rows={offerLetterRows}
            draft={fields as OfferLetterDraft}
            onDraft={setFields}
          />
        )}
      </div>
    </ConfirmDialog>
  );
}
