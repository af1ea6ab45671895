import { useId, useState } from "react";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { messageBody } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { verifyUrl } from "./code";
import { DocumentCorrections } from "./DocumentCorrections";
import type { DocumentView } from "./documents.server";
import type { OfferResponse } from "./kinds";
import { linkedInAddUrl } from "./share";
import { documentState, replyLabels, replyState } from "./status";
import { formatDocumentDate, payWords } from "./words";
import { formatDateTime } from "~/core/dates";

const stateLabels = { valid: "Valid", expired: "Expired", revoked: "Revoked" } as const;

const badgeColours: Record<string, string> = {
  Valid: "bg-green-100 text-green-900",
  Accepted: "bg-green-100 text-green-900",
  "Awaiting reply": "bg-amber-100 text-amber-900",
  Declined: "bg-slate-200 text-slate-900",
  Expired: "bg-slate-200 text-slate-900",
  Revoked: "bg-red-100 text-red-900",
};

/** What a document's badge says: Revoked, else for an offer its reply, else Valid or Expired. */
export function statusWords(document: DocumentView, today: string): string {
  const state = documentState(document, today);
  if (state === "revoked" || document.kind === "certificate") return stateLabels[state];
  return replyLabels[replyState(document, today)];
}

function Badge({ label }: { label: string }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-bold tracking-wide uppercase ${badgeColours[label] ?? ""}`}>
      {label}
    </span>
  );
}

const pdfHref = (code: string) => `/api/documents/${encodeURIComponent(code)}/pdf`;
const linkClass = "font-semibold text-blue-800 underline";
const smallButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/** The facts both lists show: dates, hours, place and pay. */
function Facts({ document }: { document: DocumentView }) {
  const facts: [string, string][] = [["Code", document.code]];
  facts.push([document.kind === "certificate" ? "Issued" : "Dated", formatDocumentDate(document.issuedOn)]);
  if (document.validUntil) facts.push(["Valid until", formatDocumentDate(document.validUntil)]);
  if (document.hours !== null) facts.push(["Hours", String(document.hours)]);
  if (document.startDate) facts.push(["Start date", formatDocumentDate(document.startDate)]);
  if (document.location) facts.push(["Location", document.location]);
  if (document.pay) facts.push([document.pay.kind === "ctc" ? "CTC" : "Stipend", payWords(document.pay)]);
  if (document.replyBy) facts.push(["Reply by", formatDocumentDate(document.replyBy)]);
  return (
    <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-semibold text-slate-700">{label}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A learner's documents on their staff page: state, the offer's answer and when, and the PDF;
 * for admins, Reissue and Revoke.
 */
export function StaffDocumentList({
  documents,
  today,
  timeZone,
  learnerId,
  learnerName,
  isAdmin,
}: {
  documents: DocumentView[];
  today: string;
  timeZone: string;
  learnerId: string;
  learnerName: string;
  isAdmin: boolean;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        Documents issued (PDF)
      </h2>
      {documents.length === 0 ? (
        <p className="mt-4 text-slate-700">No documents have been issued to {learnerName} yet.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {documents.map((document) => (
            <li
              key={document.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="staff-document"
            >
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-slate-900">
                  {document.kind === "certificate" ? "Certificate" : "Offer letter"}: {document.title}
                </span>
                <Badge label={statusWords(document, today)} />
              </p>
              {document.response && document.respondedAt && (
                <p className="mt-1 text-sm text-slate-700">
                  {document.response === "accepted" ? "Accepted" : "Declined"}{" "}
                  <time dateTime={document.respondedAt}>{formatDateTime(document.respondedAt, timeZone)}</time>.
                </p>
              )}
              {document.revokedAt && (
                <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-700">
                  Revoked <time dateTime={document.revokedAt}>{formatDateTime(document.revokedAt, timeZone)}</time>
                  {document.revokeReason && `: ${document.revokeReason}`}
                </p>
              )}
              {document.reissuedAt && (
                <p className="mt-1 text-sm text-slate-700">
                  Reissued <time dateTime={document.reissuedAt}>{formatDateTime(document.reissuedAt, timeZone)}</time>.
                </p>
              )}
              <Facts document={document} />
              <div className="mt-2 flex flex-wrap items-center justify-between gap-3 text-sm">
                <a className={linkClass} href={pdfHref(document.code)}>
                  Download PDF<span className="sr-only"> of {document.title}</span>
                </a>
                {isAdmin && <DocumentCorrections learnerId={learnerId} document={document} />}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The learner's certificates or offer letters as PDFs, above the texts in the same popup: each
 * with its code and state, Download PDF and Verify; a certificate can go to LinkedIn and its
 * verify link to the clipboard; an offer letter awaiting a reply is accepted or declined here.
 */
export function LearnerDocuments({
  documents,
  today,
  appUrl,
}: {
  documents: DocumentView[];
  today: string;
  appUrl: string;
}) {
  const toast = useToast();
  const action = useAction();
  const [answering, setAnswering] = useState<{ document: DocumentView; answer: OfferResponse } | null>(null);
  if (documents.length === 0) return null;
  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success("Verify link copied.");
    } catch {
      toast.error(`Copying was not allowed. The link is ${link}`);
    }
  };
  return (
    <>
      <ol className="mb-4 space-y-4" aria-label="Documents (PDF)">
        {documents.map((document) => {
          const link = verifyUrl(appUrl, document.code);
          const status = statusWords(document, today);
          const awaiting = document.kind === "offer-letter" && status === replyLabels.awaiting;
          return (
            <li key={document.id} className="rounded-lg border border-slate-200 p-4" data-testid="learner-document">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-slate-900">{document.title}</span>
                <Badge label={status} />
              </p>
              {document.description && <p className="mt-1 text-sm text-slate-700">{document.description}</p>}
              <Facts document={document} />
              {document.body && (
                <div className={`mt-3 ${messageBody}`} dangerouslySetInnerHTML={{ __html: document.body }} />
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                <a className={smallButton} href={pdfHref(document.code)}>
                  Download PDF<span className="sr-only"> of {document.title}</span>
                </a>
                <a className={smallButton} href={link} target="_blank" rel="noopener noreferrer">
                  Verify<span className="sr-only"> {document.title}</span>
                </a>
                {document.kind === "certificate" && (
                  <>
                    <a
                      className={smallButton}
                      href={linkedInAddUrl(document, link)}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      Add to LinkedIn
                    </a>
                    <button type="button" className={smallButton} onClick={() => void copy(link)}>
                      Copy verify link
                    </button>
                  </>
                )}
                {awaiting && (
                  <>
                    <button
                      type="button"
                      className="inline-flex items-center justify-center rounded-md bg-blue-800 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-900"
                      onClick={() => setAnswering({ document, answer: "accepted" })}
                    >
                      Accept offer
                    </button>
                    <button
                      type="button"
                      className={smallButton}
                      onClick={() => setAnswering({ document, answer: "declined" })}
                    >
                      Decline offer
                    </button>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <ConfirmDialog
        open={answering !== null}
        onOpenChange={(open) => !open && setAnswering(null)}
        title={answering?.answer === "accepted" ? "Accept this offer?" : "Decline this offer?"}
        description={
          answering
            ? `${answering.answer === "accepted" ? "You accept" : "You decline"} the offer of the position of ${answering.document.title} from ${answering.document.issuerName}. You can't change your answer afterwards.`
            : ""
        }
        onYes={() =>
          answering &&
          action.submit(
            { intent: "answer-offer", documentId: answering.document.id, answer: answering.answer },
            { onDone: () => setAnswering(null) },
          )
        }
        busy={action.busy}
        danger={answering?.answer === "declined"}
        action={action}
      />
    </>
  );
}
