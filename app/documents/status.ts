import type { DocumentKind, OfferResponse } from "./kinds";

// What a document's state is on a given day. Dates are 'YYYY-MM-DD' in INSTITUTE_TZ, so they
// compare as strings.

/** Revoked outranks Expired, which outranks Valid. */
export type DocumentState = "valid" | "expired" | "revoked";

/** An offer letter's reply: the learner's answer, or none yet (awaited, or too late now). */
export type ReplyState = OfferResponse | "awaiting" | "expired";

interface Dated {
  kind: DocumentKind;
  validUntil: string | null;
  replyBy: string | null;
  response: OfferResponse | null;
  revokedAt: string | null;
}

export function replyState(document: Dated, today: string): ReplyState {
  if (document.response) return document.response;
  return document.replyBy !== null && document.replyBy < today ? "expired" : "awaiting";
}

/** Why a document has expired: its end date passed, or (an offer letter) its reply date with no reply. */
export type Expiry = { by: "valid-until" | "reply-by"; date: string };

export function expiry(document: Dated, today: string): Expiry | null {
  if (document.validUntil !== null && document.validUntil < today)
    return { by: "valid-until", date: document.validUntil };
  if (document.kind === "offer-letter" && replyState(document, today) === "expired") {
    return { by: "reply-by", date: document.replyBy! };
  }
  return null;
}

export function documentState(document: Dated, today: string): DocumentState {
  if (document.revokedAt) return "revoked";
  return expiry(document, today) ? "expired" : "valid";
}

export const replyLabels: Record<ReplyState, string> = {
  accepted: "Accepted",
  declined: "Declined",
  awaiting: "Awaiting reply",
  expired: "Expired",
};
