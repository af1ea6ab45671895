import { formatDocumentDate } from "~/documents/words";
import type { OutcomeReport } from "./reports.server";
import type { PublicPlacement } from "./public-outcomes.server";
import { OutcomeDefinitions, OutcomeTable, batchLine, courseLine } from "./OutcomeTable";

/** The public outcomes: batches that ended at least 180 days ago, and names only with consent. */
export function PublicOutcomesPage({ data }: { data: OutcomeReport & { placedByName: PublicPlacement[] } }) {
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Placement outcomes</h1>
      <p className="mt-3 text-slate-700">
        Counted from our records of enrolments, graduations and offer letters we checked, as of{" "}
        {formatDocumentDate(data.today)}. A batch appears here once 180 days have passed since it ended, so every
        learner had the full time to be placed.
      </p>
      {data.all.placementRate.percent !== null && (
        <p className="mt-6 text-lg text-slate-800" data-testid="outcomes-figure">
          <strong className="text-3xl font-bold text-slate-900">{data.all.placementRate.percent}%</strong> of
          job-seeking graduates placed within 180 days ({data.all.placementRate.numerator} of{" "}
          {data.all.placementRate.denominator}), in batches that ended by{" "}
          {formatDocumentDate(data.batches.reduce((latest, b) => (b.endDate > latest ? b.endDate : latest), ""))}.
        </p>
      )}
      {data.batches.length === 0 ? (
        <p className="mt-6 text-slate-700">No batch has ended 180 or more days ago yet.</p>
      ) : (
        <>
          <h2 className="mt-8 text-xl font-semibold text-slate-900">By course</h2>
          <OutcomeTable caption="Outcomes by course" fees={false} lines={data.courses.map(courseLine)} />
          <h2 className="mt-8 text-xl font-semibold text-slate-900">By batch</h2>
          <OutcomeTable caption="Outcomes by batch" fees={false} lines={data.batches.map(batchLine)} />
        </>
      )}
      <OutcomeDefinitions fees={false} />
      {data.placedByName.length > 0 && (
        <section aria-labelledby="placed-heading" className="mt-8">
          <h2 id="placed-heading" className="text-xl font-semibold text-slate-900">
            Some of our placed learners
          </h2>
          <p className="mt-2 text-sm text-slate-700">Named here with their written consent.</p>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="placed-names">
            {data.placedByName.map((p, index) => (
              <li key={index} className="rounded-lg border border-slate-200 bg-white px-3 py-2">
                <span className="font-semibold text-slate-900">{p.name}</span>
                <span className="text-slate-700">
                  {" "}
                  at {p.company} ({p.batch})
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
