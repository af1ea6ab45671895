import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, RupeesField, controlClass, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { formatRupees } from "~/core/money";
import { day, type Enrolment } from "./placement-view";

function InstalmentSelect({ id, enrolment }: { id: string; enrolment: Enrolment }) {
  const open = enrolment.instalments.filter((i) => i.state !== "paid" && i.state !== "waived");
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Instalment
      </label>
      <select id={id} name="instalmentId" className={controlClass} required>
        {open.map((i) => (
          <option key={i.id} value={i.id}>
            {i.number}: {formatRupees(i.totalPaise - i.paidPaise)} left, due {day(i.dueDate)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Staff's forms against an enrolment's fees: a payment, a pause and (admins only) a waiver. */
export function FeeForms({ enrolment, admin }: { enrolment: Enrolment; admin: boolean }) {
  const ids = useId();
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-3">
      <ActionForm
        intent="record-payment"
        className="space-y-2 rounded-md border border-slate-200 p-3"
        label="Record a payment"
      >
        <h5 className="font-semibold text-slate-900">Record a payment</h5>
        <InstalmentSelect id={`${ids}-pay`} enrolment={enrolment} />
        <RupeesField id={`${ids}-amount`} name="amount" label="Amount" required />
        <Field id={`${ids}-paid-on`} name="paidOn" label="Paid on" type="date" required />
        <Field id={`${ids}-reference`} name="reference" label="Reference" required maxLength={120} />
        <button type="submit" className={primaryButton}>
          Record payment
        </button>
      </ActionForm>
      <ActionForm intent="pause-fees" className="space-y-2 rounded-md border border-slate-200 p-3" label="Pause fees">
        <h5 className="font-semibold text-slate-900">Pause fees</h5>
        <input type="hidden" name="enrolmentId" value={enrolment.id} />
        <Field id={`${ids}-until`} name="until" label="Until" type="date" required />
        <Field id={`${ids}-pause-reason`} name="reason" label="Reason" required maxLength={500} />
        <button type="submit" className={secondaryButton}>
          Pause
        </button>
      </ActionForm>
      {admin && (
        <ActionForm
          intent="waive-instalment"
          className="space-y-2 rounded-md border border-slate-200 p-3"
          label="Waive an instalment"
        >
          <h5 className="font-semibold text-slate-900">Waive an instalment</h5>
          <InstalmentSelect id={`${ids}-waive`} enrolment={enrolment} />
          <Field id={`${ids}-waive-reason`} name="reason" label="Reason" required maxLength={500} />
          <button type="submit" className={secondaryButton}>
            Waive
          </button>
        </ActionForm>
      )}
    </div>
  );
}
