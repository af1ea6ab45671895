import { formatRupees, paise } from "~/core/money";
import type { FeeTerms } from "./fees";

// Fee terms as stored and as a visitor reads them on a course card. Pure: integer paise and
// basis points in, words out.

/** A stored `fee_terms` row as the arithmetic's terms (pg's bigint columns arrive as strings). */
export function termsOf(row: {
  ctcThresholdPaise: number | string;
  feeKind: "fixed" | "percent";
  feeAmountPaise: number | string | null;
  feeBasisPoints: number | null;
  capPaise: number | string | null;
  instalments: number;
  placementWindowMonths: number;
  gstBasisPoints: number;
}): FeeTerms {
  return {
    ctcThresholdPaise: paise(row.ctcThresholdPaise),
    fee:
      row.feeKind === "fixed"
        ? { kind: "fixed", amountPaise: paise(row.feeAmountPaise) }
        : { kind: "percent", basisPoints: row.feeBasisPoints ?? 0 },
    capPaise: row.capPaise === null ? null : paise(row.capPaise),
    instalments: row.instalments,
    placementWindowMonths: row.placementWindowMonths,
    gstBasisPoints: row.gstBasisPoints,
  };
}

/** Basis points as a percentage, by integer arithmetic: 1500 → "15 %", 1250 → "12.5 %", 1205 → "12.05 %". */
export function percentText(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const hundredths = basisPoints % 100;
  const fraction = hundredths === 0 ? "" : `.${String(hundredths).padStart(2, "0").replace(/0$/, "")}`;
  return `${whole}${fraction} %`;
}

/**
 * The most the terms ever charge before GST: a fixed fee (capped), or a percentage's cap; null for
 * a percentage with no cap, which has no most.
 */
export function mostChargedPaise(terms: FeeTerms): number | null {
  if (terms.fee.kind === "fixed")
    return terms.capPaise === null ? terms.fee.amountPaise : Math.min(terms.fee.amountPaise, terms.capPaise);
  return terms.capPaise;
}

/**
 * The course card's one line: "Pay 15 % of your first-year salary after placement, at most
 * ₹2,00,000 + GST"; a fixed fee "Pay ₹60,000 after placement + GST"; no "+ GST" at a rate of 0.
 */
export function feeTermsLine(terms: FeeTerms): string {
  const gst = terms.gstBasisPoints > 0 ? " + GST" : "";
  if (terms.fee.kind === "fixed") return `Pay ${formatRupees(mostChargedPaise(terms)!)} after placement${gst}`;
  const cap = terms.capPaise === null ? "" : `, at most ${formatRupees(terms.capPaise)}`;
  return `Pay ${percentText(terms.fee.basisPoints)} of your first-year salary after placement${cap}${gst}`;
}
