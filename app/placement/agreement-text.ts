import { formatDocumentDate } from "~/documents/words";
import { addMonths, type FeeTerms } from "./fees";
import { formatRupees } from "~/core/money";
import { percentText } from "./fee-terms";

/**
 * The agreement as the learner reads and accepts it, in plain words. The text is kept with the
 * acceptance, so what they agreed to stays readable whatever the template becomes.
 */
export function agreementText(terms: FeeTerms, pauseRule: string, batch: { name: string; endDate: string }): string {
  const fee =
    terms.fee.kind === "fixed"
      ? `a fee of ${formatRupees(terms.fee.amountPaise)}`
      : `a fee of ${percentText(terms.fee.basisPoints)} of the offer's fixed CTC a year`;
  const cap = terms.capPaise === null ? "" : `, at most ${formatRupees(terms.capPaise)}`;
  const windowEnds = addMonths(batch.endDate, terms.placementWindowMonths);
  return [
    `Pay-after-placement agreement for ${batch.name}.`,
    `You pay nothing for the course until you are placed. If you accept a job offer whose fixed CTC is at least ${formatRupees(terms.ctcThresholdPaise)} a year (variable pay is not counted), and the joining date is on or before ${formatDocumentDate(windowEnds)} (${terms.placementWindowMonths} months after the batch ends), you pay ${fee}${cap}, plus GST at ${percentText(terms.gstBasisPoints)}.`,
    `The total is split into ${terms.instalments} monthly ${terms.instalments === 1 ? "instalment" : "instalments"}, the first due one month after your joining date.`,
    `If no such offer is accepted, or you join after that date, you owe nothing.`,
    `Pauses: ${pauseRule}`,
    `You tell the institute about every offer and upload the offer letter; the institute verifies it before any fee is due.`,
  ].join("\n\n");
}

/** What a learner agrees to when they allow the institute to name them publicly. */
export const consentText =
  "I agree that the institute may show my name, photo, course and employer on its public website as one of its placed learners. I can withdraw this at any time from my dashboard.";
