import type { z } from "zod";
import { documentLimits, type certificateSchema, type issueOfferLetterSchema } from "./document-fields";
import type { DocumentView } from "./documents.server";
import { payKinds, payPeriods, type PayKind, type PayPeriod } from "./kinds";

// Each document kind's fields, declared once: the names are the schema's (so a field the server
// does not read fails the typecheck), and the issue forms and the reissue dialog render them
// from here, in this order and these rows.

export type CertificateFieldName = keyof z.input<typeof certificateSchema>;
export type OfferLetterFieldName = Exclude<keyof z.input<typeof issueOfferLetterSchema>, "learnerId">;

/** One input: its label and control (a text, a date, a text area or a select). */
export interface DocumentInput {
  label: string;
  control?: "date" | "multiline" | "select";
  maxLength?: number;
  inputMode?: "numeric" | "decimal";
  placeholder?: string;
  required?: boolean;
  /** A select's choices: value and label; the first is the starting value. */
  options?: readonly (readonly [string, string])[];
}

const payKindLabels: Record<PayKind, string> = { stipend: "Stipend", ctc: "CTC" };
const payPeriodLabels: Record<PayPeriod, string> = { month: "Month", year: "Year" };

export const certificateInputs = {
  title: {
    label: "Title",
    maxLength: documentLimits.title,
    placeholder: "Full Stack Web Development",
    required: true,
  },
  description: { label: "Short description (optional)", control: "multiline", maxLength: documentLimits.description },
  issuedOn: { label: "Issue date", control: "date" },
  validUntil: { label: "Valid until (optional)", control: "date" },
  hours: { label: "Hours (optional)", inputMode: "numeric", maxLength: 6 },
} as const satisfies Record<CertificateFieldName, DocumentInput>;

export const offerLetterInputs = {
  title: { label: "Position", maxLength: documentLimits.title, required: true },
  issuedOn: { label: "Letter date", control: "date" },
  startDate: { label: "Start date", control: "date", required: true },
  location: { label: "Location", maxLength: documentLimits.location, required: true },
  replyBy: { label: "Reply by", control: "date", required: true },
  payKind: { label: "Pay", control: "select", options: payKinds.map((kind) => [kind, payKindLabels[kind]] as const) },
  payAmount: { label: "Amount in rupees", inputMode: "decimal", maxLength: 30, placeholder: "25,000", required: true },
  payPeriod: {
    label: "Per",
    control: "select",
    options: payPeriods.map((period) => [period, payPeriodLabels[period]] as const),
  },
  body: { label: "Letter text", control: "multiline" },
} as const satisfies Record<OfferLetterFieldName, DocumentInput>;

/** The rows the fields are laid out in: a row's fields sit side by side on wider screens. */
export const certificateRows: readonly (readonly CertificateFieldName[])[] = [
  ["title"],
  ["description"],
  ["issuedOn", "validUntil", "hours"],
];
export const offerLetterRows: readonly (readonly OfferLetterFieldName[])[] = [
  ["title"],
  ["issuedOn", "startDate", "location", "replyBy"],
  ["payKind", "payAmount", "payPeriod"],
  ["body"],
];

export type CertificateDraft = Record<CertificateFieldName, string>;
export type OfferLetterDraft = Record<OfferLetterFieldName, string>;

/** A new document's fields: empty, dated today, selects at their first choice. */
function emptyDraft<N extends string>(inputs: Record<N, DocumentInput>, today: string): Record<N, string> {
  const names = Object.keys(inputs) as N[];
  return Object.fromEntries(
    names.map((name) => [name, name === "issuedOn" ? today : (inputs[name].options?.[0]?.[0] ?? "")]),
  ) as Record<N, string>;
}

export const emptyCertificate = (today: string): CertificateDraft => emptyDraft(certificateInputs, today);
export const emptyOfferLetter = (today: string): OfferLetterDraft => emptyDraft(offerLetterInputs, today);

/** Paise as the rupees a person would type: 2500000 as "25000", 2500050 as "25000.50". */
function typedRupees(paise: number): string {
  return paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2);
}

/** An issued document's fields as its form holds them (dates 'YYYY-MM-DD', pay in rupees). */
export function draftOf(document: DocumentView): CertificateDraft | OfferLetterDraft {
  const value = (name: CertificateFieldName | OfferLetterFieldName): string => {
    if (name === "hours") return document.hours === null ? "" : String(document.hours);
    if (name === "payKind") return document.pay?.kind ?? payKinds[0];
    if (name === "payAmount") return document.pay ? typedRupees(document.pay.amountPaise) : "";
    if (name === "payPeriod") return document.pay?.period ?? payPeriods[0];
    return document[name] ?? "";
  };
  const names = Object.keys(document.kind === "certificate" ? certificateInputs : offerLetterInputs);
  return Object.fromEntries(names.map((name) => [name, value(name as CertificateFieldName)])) as CertificateDraft;
}
