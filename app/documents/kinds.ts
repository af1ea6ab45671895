// The kinds of verifiable document and the fixed values their fields take. The database type,
// the forms and the popups derive from these lists.

export const documentKinds = ["certificate", "offer-letter"] as const;

export type DocumentKind = (typeof documentKinds)[number];

export const payKinds = ["stipend", "ctc"] as const;

export type PayKind = (typeof payKinds)[number];

export const payPeriods = ["month", "year"] as const;

export type PayPeriod = (typeof payPeriods)[number];

export const offerResponses = ["accepted", "declined"] as const;

export type OfferResponse = (typeof offerResponses)[number];
