import type { useFormProblem } from "~/ui/form";
import { Field } from "~/ui/form";
import { passwordMinLength } from "./sign-up-schema";

/** One password input as a form holds it: its control's id and name, label and value. */
export interface PasswordInput {
  id: string;
  label: string;
  /** The form field's name, when it differs from the id (a plain form's post). */
  name?: string;
  value?: string;
  onChange?: (value: string) => void;
}

type Describe = ReturnType<typeof useFormProblem>["describe"];

/** A password the person already has (signing in, changing it, deleting the account). */
export function CurrentPasswordField({ input, describe }: { input: PasswordInput; describe?: Describe }) {
  return <PasswordControl input={input} autoComplete="current-password" describe={describe} />;
}

/**
 * A new password typed twice: sign-up, a password change and the reset page. The rule
 * (`hintId`: shown below the first, and part of its description) is the sign-up's.
 */
export function NewPasswordFields({
  password,
  confirm,
  hintId,
  describe,
}: {
  password: PasswordInput;
  confirm: PasswordInput;
  hintId?: string;
  describe?: Describe;
}) {
  return (
    <>
      <div>
        <PasswordControl input={password} autoComplete="new-password" describe={describe} hintId={hintId} />
        {hintId && (
          <p id={hintId} className="mt-1 text-sm text-slate-700">
            {`At least ${passwordMinLength} characters.`}
          </p>
        )}
      </div>
      <PasswordControl input={confirm} autoComplete="new-password" describe={describe} />
    </>
  );
}

function PasswordControl({
  input,
  autoComplete,
  describe,
  hintId,
}: {
  input: PasswordInput;
  autoComplete: "current-password" | "new-password";
  describe?: Describe;
  hintId?: string;
}) {
  const { id, label, name, value, onChange } = input;
  return (
    <Field
      id={id}
      name={name ?? id}
      label={label}
      type="password"
      value={value}
      onChange={onChange && ((event) => onChange(event.target.value))}
      autoComplete={autoComplete}
      {...(describe ? describe(id, hintId) : {})}
    />
  );
}
