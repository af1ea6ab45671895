import { useId, useState } from "react";
import { Form } from "react-router";
import { ErrorLine, Field } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { formatDocumentDate } from "./words";
import { replyLabels, type DocumentState, type Expiry, type ReplyState } from "./status";
import type { VerifiedDocument } from "./verify.server";
import { formatDay } from "~/core/dates";

const kindNames = { certificate: "Certificate", "offer-letter": "Offer letter" } as const;

const stateLooks: Record<DocumentState, { word: string; box: string }> = {
  valid: { word: "Valid", box: "border-green-700 bg-green-50 text-green-900" },
  expired: { word: "Expired", box: "border-amber-700 bg-amber-50 text-amber-950" },
  revoked: { word: "Revoked", box: "border-red-700 bg-red-50 text-red-900" },
};

/** Why the state is what it is, in one sentence. */
function stateReason(document: VerifiedDocument, state: DocumentState, ended: Expiry | null, timeZone: string) {
  const what = kindNames[document.kind].toLowerCase();
  if (state === "revoked") {
    const on = document.revokedAt ? ` on ${formatDay(document.revokedAt, timeZone)}` : "";
    return `${document.issuerName} revoked this ${what}${on}.`;
  }
  if (state === "expired" && ended) {
    return ended.by === "valid-until"
      ? `This ${what} was valid until ${formatDocumentDate(ended.date)}.`
      : `The reply to this offer was due by ${formatDocumentDate(ended.date)} and none came.`;
  }
  return `${document.issuerName} issued this ${what}, and it has not been revoked.`;
}

/** The public page of one document: its state, its fields, and a check of a PDF against it. */
export function VerifyPage({
  document,
  state,
  expiry,
  reply,
  timeZone,
}: {
  document: VerifiedDocument;
  state: DocumentState;
  expiry: Expiry | null;
  reply: ReplyState | null;
  timeZone: string;
}) {
  const look = stateLooks[state];
  const kind = kindNames[document.kind];
  return (
    <>
      <div className={`rounded-xl border-2 p-6 ${look.box}`} data-testid="document-state">
        <h1>
          <span className="block text-base font-semibold">
            {kind} <span className="break-all">{document.code}</span>
          </span>
          <span className="mt-1 block text-5xl font-bold tracking-tight">{look.word}</span>
        </h1>
        <p className="mt-3 text-lg">{stateReason(document, state, expiry, timeZone)}</p>
        {state === "revoked" && document.revokeReason && (
          <p className="mt-2 text-lg [overflow-wrap:anywhere]">
            <span className="font-semibold">Reason:</span> {document.revokeReason}
          </p>
        )}
        {document.reissuedAt && (
          <p className="mt-2">
            Reissued on {formatDay(document.reissuedAt, timeZone)}, with corrections. Only the PDF issued then matches
            this page.
          </p>
        )}
      </div>

      <dl className="mt-8 grid gap-x-6 gap-y-4 sm:grid-cols-[12rem_1fr]" data-testid="document-fields">
        <Row term="Holder">{document.holderName}</Row>
        {document.kind === "certificate" ? (
          <>
            <Row term="Certificate">{document.title}</Row>
            {document.description && <Row term="Description">{document.description}</Row>}
            {document.hours !== null && (
              <Row term="Hours">
                {document.hours} {document.hours === 1 ? "hour" : "hours"}
              </Row>
            )}
          </>
        ) : (
          <>
            <Row term="Position">{document.title}</Row>
            {document.location && <Row term="Location">{document.location}</Row>}
            {document.startDate && <Row term="Start date">{formatDocumentDate(document.startDate)}</Row>}
            {reply && (
              <Row term="Reply">
                {replyLabels[reply]}
                {reply === "awaiting" && document.replyBy && ` (due by ${formatDocumentDate(document.replyBy)})`}
              </Row>
            )}
          </>
        )}
        <Row term="Issued by">
          {document.issuerName} <span className="text-slate-700">({document.issuerUrl})</span>
        </Row>
        <Row term="Issue date">{formatDocumentDate(document.issuedOn)}</Row>
        {document.kind === "certificate" && (
          <Row term="Valid until">{document.validUntil ? formatDocumentDate(document.validUntil) : "No end date"}</Row>
        )}
        {document.signatoryName && (
          <Row term="Signed by">
            {document.signatoryName}
            {document.signatoryTitle && `, ${document.signatoryTitle}`}
          </Row>
        )}
      </dl>

      <PdfCheck sha256={document.sha256} />

      {document.jws && (
        <details className="mt-8 rounded-xl border border-slate-200 p-4">
          <summary className="cursor-pointer font-semibold text-slate-900">Signed data</summary>
          <p className="mt-2 text-sm text-slate-700">
            The document's essential fields, signed by {document.issuerName} (a compact JWS). Its keys are published at{" "}
            <span className="break-all">{document.issuerUrl}/.well-known/jwks.json</span>.
          </p>
          <pre className="mt-2 text-xs break-all whitespace-pre-wrap text-slate-900">{document.jws}</pre>
          {document.kind === "certificate" && (
            <p className="mt-3 text-sm text-slate-700">
              {"As an Open Badges 3.0 credential, with a proof any verifier can check: "}
              <a
                href={`/verify/${document.code}/credential.json`}
                className="font-medium break-all text-blue-800 underline"
              >{`/verify/${document.code}/credential.json`}</a>
            </p>
          )}
        </details>
      )}

      <section aria-labelledby="verify-another" className="mt-12 border-t border-slate-200 pt-8">
        <h2 id="verify-another" className="text-xl font-bold text-slate-900">
          Verify another document
        </h2>
        <VerifyForm />
      </section>
    </>
  );
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="font-semibold text-slate-900">{term}</dt>
      <dd className="-mt-3 text-slate-900 [overflow-wrap:anywhere] sm:mt-0">{children}</dd>
    </>
  );
}

/** A PDF larger than this is not one of ours (they are about 100 KB); it isn't read. */
const maxCheckedBytes = 50 * 1024 * 1024;

type CheckResult = { matches: boolean; text: string; detail?: string };

/**
 * Compares a PDF the visitor has with the one issued, in the browser: its SHA-256 against the
 * one recorded. The file never leaves the visitor's computer.
 */
function PdfCheck({ sha256 }: { sha256: string }) {
  const ids = useId();
  const [result, setResult] = useState<CheckResult | null>(null);
  const [dragging, setDragging] = useState(false);

  const check = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > maxCheckedBytes) {
      return setResult({ matches: false, text: "That file is larger than 50 MB, so it is not this document's PDF." });
    }
    if (!globalThis.crypto?.subtle) {
      return setResult({
        matches: false,
        text: "This browser can't compute the checksum here (it needs a secure connection). Use sha256sum instead.",
      });
    }
    const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
    setResult(
      hex === sha256
        ? { matches: true, text: "This PDF matches the document.", detail: `${file.name} is the PDF issued.` }
        : {
            matches: false,
            text: "This PDF does not match the document: it is not the PDF issued with this code, or it was changed.",
            detail: `${file.name} has SHA-256 ${hex}.`,
          },
    );
  };

  return (
    <section aria-labelledby={`${ids}-title`} className="mt-10">
      <h2 id={`${ids}-title`} className="text-xl font-bold text-slate-900">
        Check a PDF
      </h2>
      <p className="mt-2 text-slate-700">The SHA-256 checksum of the PDF issued with this code:</p>
      <p className="mt-1 rounded-md bg-slate-100 p-3 font-mono text-sm break-all text-slate-900" data-testid="sha256">
        {sha256}
      </p>
      <p className="mt-2 text-sm text-slate-700">
        On a computer, <code className="font-mono">sha256sum document.pdf</code> prints it for a file you have. Or drop
        the PDF below: it is checked in your browser and not sent anywhere.
      </p>
      <div
        className={`mt-4 rounded-xl border-2 border-dashed p-6 text-center ${dragging ? "border-blue-800 bg-blue-50" : "border-slate-400"}`}
        data-testid="pdf-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void check(event.dataTransfer.files[0]);
        }}
      >
        <p className="text-slate-900">Drop the PDF here, or</p>
        <label htmlFor={`${ids}-file`} className="mt-2 block font-semibold text-slate-900">
          Choose a PDF to check
        </label>
        <input
          id={`${ids}-file`}
          type="file"
          accept="application/pdf,.pdf"
          className="mx-auto mt-2 block w-full max-w-xs text-sm file:mr-3 file:rounded-md file:border-0 file:bg-blue-800 file:px-4 file:py-2 file:font-semibold file:text-white"
          onChange={(event) => void check(event.currentTarget.files?.[0])}
        />
      </div>
      <div role="status" className="mt-4 min-h-6" data-testid="pdf-check">
        {result && (
          <>
            <p className={`font-semibold ${result.matches ? "text-green-800" : "text-red-700"}`}>{result.text}</p>
            {result.detail && <p className="mt-1 text-sm break-all text-slate-700">{result.detail}</p>}
          </>
        )}
      </div>
    </section>
  );
}

/** Type a code, see its document. Case, spaces and dashes don't matter. */
export function VerifyForm({ typed = "", problem = null }: { typed?: string; problem?: string | null }) {
  const ids = useId();
  return (
    <Form method="get" action="/verify" className="mt-4 max-w-xl" noValidate>
      <Field
        id={`${ids}-code`}
        name="code"
        label="Document code"
        defaultValue={typed}
        placeholder="UPS-XXXX-XXXX-XXXX-XXXX"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={64}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${ids}-hint${problem ? ` ${ids}-problem` : ""}`}
        beside={
          <button type="submit" className={primaryButton}>
            Verify
          </button>
        }
      />
      <p id={`${ids}-hint`} className="mt-1 text-sm text-slate-700">
        The code printed on the certificate or offer letter. Upper or lower case, with or without dashes.
      </p>
      <ErrorLine id={`${ids}-problem`} message={problem ?? undefined} className="mt-1" />
    </Form>
  );
}
