import { formatDocumentDate } from "~/documents/words";
import { formatRupees } from "~/core/money";
import { outcomeDefinitions, type OutcomeRow } from "./outcomes";

export interface OutcomeLine {
  key: string;
  /** The batch's or course's name, as the row's header. */
  name: string;
  /** Under the name: the batch's dates, or how many batches. */
  note: string;
  row: OutcomeRow;
}

const dash = (
  <>
    <span aria-hidden="true">—</span>
    <span className="sr-only">none</span>
  </>
);

const money = (paise: number | null) => (paise === null ? dash : formatRupees(paise));

function Rate({ rate }: { rate: OutcomeRow["placementRate"] }) {
  return (
    <>
      {rate.percent === null ? dash : `${rate.percent}%`}
      <span className="block text-xs text-slate-700">
        {rate.numerator} of {rate.denominator}
      </span>
    </>
  );
}

/**
 * The outcome table: one row per batch or course, with the rate's numerator and denominator.
 * `fees` adds the fees collected against due (staff only: the public page shows outcomes).
 */
export function OutcomeTable({ caption, lines, fees }: { caption: string; lines: OutcomeLine[]; fees: boolean }) {
  const cell = "px-3 py-2 text-right tabular-nums";
  return (
    <div
      className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white"
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left align-bottom">
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Enrolled
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Graduated
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Seeking a job
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Placed within 180 days
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Placement rate
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Median CTC
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Highest CTC
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Median days to offer
            </th>
            {fees && (
              <th scope="col" className="px-3 py-2 text-right">
                Fees collected / due
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {lines.map(({ key, name, note, row }) => (
            <tr key={key} className="border-b border-slate-100 align-top" data-testid="outcome-row">
              <th scope="row" className="px-3 py-2 text-left font-semibold text-slate-900">
                {name}
                <span className="block text-xs font-normal text-slate-700">{note}</span>
              </th>
              <td className={cell}>{row.enrolled}</td>
              <td className={cell}>{row.graduated}</td>
              <td className={cell}>{row.seeking}</td>
              <td className={cell}>{row.placedWithin180Days}</td>
              <td className={cell}>
                <Rate rate={row.placementRate} />
              </td>
              <td className={cell}>{money(row.medianCtcPaise)}</td>
              <td className={cell}>{money(row.highestCtcPaise)}</td>
              <td className={cell}>{row.medianDaysToOffer ?? dash}</td>
              {fees && (
                <td className={cell}>
                  {formatRupees(row.feesCollectedPaise)}
                  <span className="block text-xs text-slate-700">of {formatRupees(row.feesDuePaise)} due</span>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The definitions under the table, the same words on the staff report and the public page. */
export function OutcomeDefinitions({ fees }: { fees: boolean }) {
  const terms = fees ? outcomeDefinitions : outcomeDefinitions.filter((d) => d.term !== "Fees collected vs due");
  return (
    <section aria-labelledby="definitions-heading" className="mt-8">
      <h2 id="definitions-heading" className="text-xl font-semibold text-slate-900">
        How these numbers are counted
      </h2>
      <dl className="mt-3 space-y-3 text-sm text-slate-700">
        {terms.map((d) => (
          <div key={d.term}>
            <dt className="font-semibold text-slate-900">{d.term}</dt>
            <dd>{d.definition}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A batch's line: its name, and when it ran. */
export function batchLine(batch: {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  row: OutcomeRow;
}): OutcomeLine {
  return {
    key: batch.id,
    name: batch.name,
    note: `${formatDocumentDate(batch.startDate)} to ${formatDocumentDate(batch.endDate)}`,
    row: batch.row,
  };
}

export function courseLine(course: { course: string; batches: number; row: OutcomeRow }): OutcomeLine {
  return {
    key: course.course,
    name: course.course,
    note: `${course.batches} ${course.batches === 1 ? "batch" : "batches"}`,
    row: course.row,
  };
}
