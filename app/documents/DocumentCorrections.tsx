import { useId, useState } from "react";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { Field, controlClass, labelClass } from "~/ui/form";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { revokeReasonMax } from "./correction-fields";
import { documentLimits } from "./document-fields";
import type { DocumentView } from "./documents.server";

const smallButton =
  "rounded-md border border-blue-800 bg-white px-3 py-1 text-sm font-semibold text-blue-800 hover:bg-blue-50";
const smallDangerButton =
  "rounded-md border border-red-700 bg-white px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50";

/** Paise as the rupees a person would type: 2500000 as "25000", 2500050 as "25000.50". */
function rupees(paise: number): string {
  return paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2);
}

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
    if (!reason.trim()) return setError("Please give the reason for revoking.");
    action.submit(
      { intent: "revoke-document", learnerId, documentId: document.id, reason },
      {
        inline: true,
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

/** The dialog's fields, as typed (dates 'YYYY-MM-DD', pay in rupees). */
function startingFields(document: DocumentView): Record<string, string> {
  const common = { holderName: document.holderName, title: document.title, issuedOn: document.issuedOn };
  if (document.kind === "certificate") {
    return {
      ...common,
      description: document.description ?? "",
      validUntil: document.validUntil ?? "",
      hours: document.hours === null ? "" : String(document.hours),
    };
  }
  return {
    ...common,
    startDate: document.startDate ?? "",
    location: document.location ?? "",
    payKind: document.pay?.kind ?? "stipend",
    payAmount: document.pay ? rupees(document.pay.amountPaise) : "",
    payPeriod: document.pay?.period ?? "month",
    replyBy: document.replyBy ?? "",
    body: document.body ?? "",
  };
}

function ReissueDialog({ learnerId, document, what, onClose }: DialogProps) {
  const ids = useId();
  const action = useAction();
  const toast = useToast();
  const [fields, setFields] = useState(() => startingFields(document));
  const [error, setError] = useState("");
  const field = (name: string) => ({
    id: `${ids}-${name}`,
    name,
    value: fields[name] ?? "",
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setFields((all) => ({ ...all, [name]: event.target.value })),
  });
  const reissue = () =>
    action.submit(
      {
        intent: document.kind === "certificate" ? "reissue-certificate" : "reissue-offer-letter",
        learnerId,
        documentId: document.id,
        ...fields,
      },
      {
        inline: true,
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
    >
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        <Field className="sm:col-span-2" label="Holder's name" maxLength={100} {...field("holderName")} />
        <Field
          className="sm:col-span-2"
          label={document.kind === "certificate" ? "Title" : "Position"}
          maxLength={documentLimits.title}
          {...field("title")}
        />
        {document.kind === "certificate" ? (
          <>
            <Field
              multiline
              className="sm:col-span-2"
              label="Description"
              maxLength={documentLimits.description}
              {...field("description")}
            />
            <Field label="Issue date" type="date" {...field("issuedOn")} />
            <Field label="Valid until (empty: no end)" type="date" {...field("validUntil")} />
            <Field label="Hours" inputMode="numeric" maxLength={6} {...field("hours")} />
          </>
        ) : (
          <>
            <Field
              className="sm:col-span-2"
              label="Location"
              maxLength={documentLimits.location}
              {...field("location")}
            />
            <Field label="Issue date" type="date" {...field("issuedOn")} />
            <Field label="Start date" type="date" {...field("startDate")} />
            <Field label="Reply by" type="date" {...field("replyBy")} />
            <div>
              <label htmlFor={`${ids}-payKind`} className={labelClass}>
                Pay
              </label>
              <select className={controlClass} {...field("payKind")}>
                <option value="stipend">Stipend</option>
                <option value="ctc">CTC</option>
              </select>
            </div>
            <Field label="Amount in rupees" inputMode="decimal" maxLength={30} {...field("payAmount")} />
            <div>
              <label htmlFor={`${ids}-payPeriod`} className={labelClass}>
                Per
              </label>
              <select className={controlClass} {...field("payPeriod")}>
                <option value="month">Month</option>
                <option value="year">Year</option>
              </select>
            </div>
            <Field multiline className="sm:col-span-2" label="Letter text" {...field("body")} />
          </>
        )}
      </div>
    </ConfirmDialog>
  );
}
