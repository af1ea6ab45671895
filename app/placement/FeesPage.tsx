import { Link } from "react-router";
import { formatDocumentDate } from "~/documents/words";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { formatRupees } from "~/core/money";
import { ageingBuckets, type Amount, type BatchReceivables, type Receivables } from "./receivables";
import { termsSourceLabels } from "./terms-source";

type ReceivablesLine = Receivables & { key: string; name: string; note: string };

function AmountCell({ amount }: { amount: Amount }) {
  return (
    <td className="px-3 py-2 text-right tabular-nums">
      {formatRupees(amount.paise)}
      <span className="block text-xs text-slate-700">
        {amount.count} {amount.count === 1 ? "instalment" : "instalments"}
      </span>
    </td>
  );
}

/** Receivables for staff: due this month, overdue by age, paused; per batch and in all. */
export function FeesPage({
  receivables,
}: {
  receivables: {
    today: string;
    batches: BatchReceivables[];
    all: Receivables;
  };
}) {
  const lines: ReceivablesLine[] = [
    ...receivables.batches.map((b) => ({
      ...b,
      key: b.id,
      note: b.termsSource === "override" ? `${b.course} · ${termsSourceLabels.override}` : b.course,
    })),
    { ...receivables.all, key: "all", name: "All batches", note: `${receivables.batches.length} with fees open` },
  ];
  const head = "px-3 py-2 text-right";
  return (
    <>
      <StaffSubpageHeading title="Fees receivable" />
      <p className="mt-3 text-slate-700">
        As of {formatDocumentDate(receivables.today)}.{" "}
        <a href="/staff/fees.csv" download className="font-semibold text-blue-800 underline">
          Download the open instalments (CSV)
        </a>
        {" · "}
        <Link to="/staff/outcomes" className="font-semibold text-blue-800 underline">
          Placement outcomes
        </Link>
      </p>
      {receivables.batches.length === 0 ? (
        <p className="mt-6 text-slate-700">Nothing is due or overdue.</p>
      ) : (
        <div
          className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white"
          tabIndex={0}
          role="region"
          aria-label="Receivables by batch"
        >
          <table className="w-full text-sm">
            <caption className="sr-only">Receivables by batch</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left align-bottom">
                <th scope="col" className="px-3 py-2">
                  Batch
                </th>
                <th scope="col" className={head}>
                  Due this month
                </th>
                {ageingBuckets.map((bucket) => (
                  <th key={bucket.key} scope="col" className={head}>
                    Overdue {bucket.label}
                  </th>
                ))}
                <th scope="col" className={head}>
                  Overdue in all
                </th>
                <th scope="col" className={head}>
                  Paused
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.key} className="border-b border-slate-100 align-top" data-testid="receivables-row">
                  <th scope="row" className="px-3 py-2 text-left font-semibold text-slate-900">
                    {line.name}
                    <span className="block text-xs font-normal text-slate-700">{line.note}</span>
                  </th>
                  <AmountCell amount={line.dueThisMonth} />
                  {ageingBuckets.map((bucket) => (
                    <AmountCell key={bucket.key} amount={line.overdue[bucket.key]} />
                  ))}
                  <AmountCell amount={line.overdue.total} />
                  <AmountCell amount={line.paused} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-labelledby="fees-definitions" className="mt-8">
        <h2 id="fees-definitions" className="text-xl font-semibold text-slate-900">
          How these amounts are counted
        </h2>
        <dl className="mt-3 space-y-3 text-sm text-slate-700">
          <div>
            <dt className="font-semibold text-slate-900">Due this month</dt>
            <dd>
              What is unpaid on instalments falling due this calendar month, not paused or waived. Those already past
              their due date are also counted as overdue.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Overdue</dt>
            <dd>
              What is unpaid on instalments past their due date that are not paused or waived, by days since the due
              date. A part payment reduces the amount; the instalment stays overdue until it is paid in full.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Paused</dt>
            <dd>What is unpaid on instalments falling due by the end of a pause that is still running.</dd>
          </div>
        </dl>
      </section>
    </>
  );
}
