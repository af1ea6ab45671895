import { formatRupees } from "~/core/money";
import { mostChargedPaise, percentText } from "~/placement/fee-terms";
import type { FeeTerms } from "~/placement/fees";

// When a course card's advertised price and its fee terms disagree (decision 024). The landing
// page sells every shown course as Pay After Placement, and its card shows the price beside the
// terms line; the two disagree when a visitor reading both, or a learner later reading the
// agreement, would find a different amount:
//
// - the course has pay-after-placement batches but no fee terms of its own, so its card shows no
//   terms while its learners sign some;
// - the course has fee terms and a price, and the price is not the most those terms charge
//   before GST (a fixed fee, capped; a percentage's cap). A percentage without a cap has no most,
//   so any price disagrees with it. No price never disagrees: the terms line says it all.

interface CourseOffer {
  /** Whole rupees; null when the card shows no price. */
  price: number | null;
  terms: FeeTerms | null;
  /** Its pay-after-placement batches. */
  papBatches: number;
}

/** Why the card's price and the course's terms disagree, in a sentence; null when they agree. */
export function priceTermsDisagreement(course: CourseOffer): string | null {
  if (!course.terms) {
    if (course.papBatches === 0) return null;
    const batches =
      course.papBatches === 1 ? "1 pay-after-placement batch" : `${course.papBatches} pay-after-placement batches`;
    return `It has ${batches} but no fee terms: its card shows none, while its learners sign the terms their batch names.`;
  }
  if (course.price === null || mostChargedPaise(course.terms) === course.price * 100) return null;
  return `Its card advertises ${formatRupees(course.price * 100)}, but its fee terms charge ${chargeWords(course.terms)}.`;
}

/** What the terms charge, in words: "₹60,000 before GST", "up to ₹2,00,000 before GST", "15 % of the salary with no upper limit". */
function chargeWords(terms: FeeTerms): string {
  const { fee, capPaise } = terms;
  if (fee.kind === "fixed") return `${formatRupees(mostChargedPaise(terms)!)} before GST`;
  return capPaise === null
    ? `${percentText(fee.basisPoints)} of the salary with no upper limit`
    : `up to ${formatRupees(capPaise)} before GST`;
}
