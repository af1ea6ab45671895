import { FeeForms } from "./FeeForms";
import { formatRupees } from "~/core/money";
import type { InstalmentState } from "./fees";
import { day, type Enrolment, type Viewer } from "./placement-view";

const stateNames: Record<InstalmentState, string> = {
  upcoming: "Upcoming",
  due: "Due",
  overdue: "Overdue",
  paid: "Paid",
  paused: "Paused",
  waived: "Waived",
};

const stateStyle: Record<InstalmentState, string> = {
  upcoming: "bg-slate-100 text-slate-800",
  due: "bg-amber-100 text-amber-900",
  overdue: "bg-red-100 text-red-900",
  paid: "bg-green-100 text-green-900",
  paused: "bg-blue-100 text-blue-900",
  waived: "bg-slate-200 text-slate-900",
};

/** An enrolment's fee schedule: each instalment with what was paid or waived, the pauses, and staff's forms. */
export function Instalments({ enrolment, viewer }: { enrolment: Enrolment; viewer: Viewer }) {
  return (
    <div className="mt-6">
      <h4 className="text-lg font-bold text-slate-900">Instalments</h4>
      <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Instalments table">
        <table className="w-full min-w-[36rem] text-left text-sm" data-testid="instalments">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-3">
                No.
              </th>
              <th scope="col" className="py-2 pr-3">
                Due
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Fee
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                GST
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Total
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Paid
              </th>
              <th scope="col" className="py-2">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {enrolment.instalments.map((instalment) => (
              <tr key={instalment.id} className="border-b border-slate-200 align-top" data-testid="instalment">
                <td className="py-2 pr-3">{instalment.number}</td>
                <td className="py-2 pr-3">{day(instalment.dueDate)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.feePaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.gstPaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.totalPaise)}</td>
                <td className="py-2 pr-3 text-right">{formatRupees(instalment.paidPaise)}</td>
                <td className="py-2">
                  <span className={`rounded px-2 py-0.5 font-semibold ${stateStyle[instalment.state]}`}>
                    {stateNames[instalment.state]}
                  </span>
                  {instalment.waiver && (
                    <span className="block text-slate-700">
                      Waived by {instalment.waiver.by}: {instalment.waiver.reason}
                    </span>
                  )}
                  {instalment.payments.map((payment, index) => (
                    <span key={index} className="block text-slate-700">
                      {formatRupees(payment.amountPaise)} on {day(payment.paidOn)} ({payment.reference})
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {enrolment.pauses.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          {enrolment.pauses.map((pause, index) => (
            <li key={index}>
              Paused until {day(pause.until)}: {pause.reason} ({pause.by})
            </li>
          ))}
        </ul>
      )}
      {viewer !== "learner" && <FeeForms enrolment={enrolment} admin={viewer === "admin"} />}
    </div>
  );
}
