import { useEffect, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";

/** A field's label and control; exported for the controls `Field` does not make (a select). */
export const labelClass = "block text-sm font-semibold text-slate-900";
export const controlClass =
  "mt-1 block w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-700 aria-invalid:border-red-700";

type Common = {
  id: string;
  label: ReactNode;
  /** Shown beside the control on the same line (a Submit button). */
  beside?: ReactNode;
  className?: string;
};

type FieldProps =
  | (Common & { multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className">)
  | (Common & { multiline: true } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "className">);

/** A labelled input or text area: the one field of every form (auth, reset, dashboards). */
export function Field(props: FieldProps) {
  const { id, label, beside, className } = props;
  let control: ReactNode;
  if (props.multiline) {
    const { id: _id, label: _label, beside: _beside, className: _class, multiline: _m, ...rest } = props;
    control = <textarea id={id} name={id} className={`${controlClass} h-24 text-sm`} {...rest} />;
  } else {
    const { id: _id, label: _label, beside: _beside, className: _class, multiline: _m, ...rest } = props;
    control = <input id={id} name={id} type="text" className={controlClass} {...rest} />;
  }
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {beside ? (
        <div className="flex flex-wrap items-end gap-3 [&>*:first-child]:flex-1">
          {control}
          {beside}
        </div>
      ) : (
        control
      )}
    </div>
  );
}

/**
 * An amount in rupees, typed with paise as decimals (parsed by `parseRupees` of app/core/money.ts):
 * the label says the unit, "(₹)" or "(₹, optional)", and phones show a decimal keypad.
 */
export function RupeesField({
  label,
  optional = false,
  ...rest
}: { id: string; name: string; label: string; optional?: boolean } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "className" | "inputMode"
>) {
  return <Field label={`${label} (₹${optional ? ", optional" : ""})`} inputMode="decimal" {...rest} />;
}

/** Where a form says what is wrong: announced when it changes, room kept so nothing shifts. */
export function ErrorLine({ id, message, className = "" }: { id?: string; message?: string; className?: string }) {
  return (
    <p id={id} role="alert" className={`min-h-5 text-sm font-medium text-red-700 ${className}`}>
      {message}
    </p>
  );
}

/** A course select's options, as at sign-up: a prompt, then every course learners may choose. */
export function CourseOptions({ options }: { options: readonly string[] }) {
  return (
    <>
      <option value="">Select a course</option>
      {options.map((course) => (
        <option key={course} value={course}>
          {course}
        </option>
      ))}
    </>
  );
}

/** What a form says is wrong, and the ids of the controls it is about (the first gets focus). */
interface Problem {
  message: string;
  controls: string[];
}

/**
 * A form's one message. Each new one (even the same text again) moves focus to its control,
 * which is marked invalid and described by the message until the next submit.
 */
export function useFormProblem(messageId: string) {
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    const first = problem?.controls[0];
    if (first) document.getElementById(first)?.focus();
  }, [problem]);
  /** A control's aria attributes: its hint, if any, and the message while it is about this control. */
  const describe = (id: string, hintId?: string) => {
    const invalid = problem?.controls.includes(id) ?? false;
    const describedBy = [hintId, invalid ? messageId : undefined].filter(Boolean).join(" ");
    return { "aria-invalid": invalid || undefined, "aria-describedby": describedBy || undefined };
  };
  const show = (message: string, controls: string[] = []) => setProblem({ message, controls });
  const clear = () => setProblem(null);
  return { message: problem?.message ?? "", describe, show, clear };
}
