import { Link } from "react-router";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { formatDocumentDate } from "~/documents/words";
import type { OutcomeReport } from "./reports.server";
import { OutcomeDefinitions, OutcomeTable, batchLine, courseLine } from "./OutcomeTable";

/** The outcome report for staff: every batch, every course, all batches, and the fees. */
export function StaffOutcomesPage({ report }: { report: OutcomeReport }) {
  return (
    <>
      <StaffSubpageHeading title="Placement outcomes" />
      <p className="mt-3 text-slate-700">
        As of {formatDocumentDate(report.today)}. Batches that ended less than 180 days ago are still counting.{" "}
        <Link to="/staff/fees" className="font-semibold text-blue-800 underline">
          Fees receivable
        </Link>
        {" · "}
        <Link to="/outcomes" className="font-semibold text-blue-800 underline">
          The public outcomes page
        </Link>
      </p>
      {report.batches.length === 0 ? (
        <p className="mt-6 text-slate-700">No batches yet.</p>
      ) : (
        <>
          <h2 className="mt-8 text-xl font-semibold text-slate-900">By course</h2>
          <OutcomeTable
            caption="Outcomes by course"
            fees
            lines={[
              ...report.courses.map(courseLine),
              {
                key: "all",
                name: "All courses",
                note: `${report.batches.length} ${report.batches.length === 1 ? "batch" : "batches"}`,
                row: report.all,
              },
            ]}
          />
          <h2 className="mt-8 text-xl font-semibold text-slate-900">By batch</h2>
          <OutcomeTable caption="Outcomes by batch" fees lines={report.batches.map(batchLine)} />
        </>
      )}
      <OutcomeDefinitions fees />
    </>
  );
}
