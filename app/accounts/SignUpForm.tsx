import { useState } from "react";
import { CourseOptions, ErrorLine, Field, useFormProblem } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { postAuth, type AuthAnswer } from "./auth-client";
import type { AuthFormProps } from "./auth-form-props";
import { fieldInput, fieldLabel, linkButton } from "./form-styles";
import { messages } from "./messages";
import { NewPasswordFields } from "./PasswordFields";
import { firstSignUpIssue, genders, type SignUpField } from "./sign-up-schema";

const genderControl = (value: string) => `signup-gender-${value}`;

/** The ids of the controls of a sign-up field (the gender's two radios). */
const signUpControls: Record<SignUpField, string[]> = {
  username: ["signup-username"],
  phone: ["signup-phone"],
  course: ["signup-course"],
  gender: genders.map((gender) => genderControl(gender.value)),
  email: ["signup-email"],
  password: ["signup-password"],
  confirmPassword: ["signup-confirm-password"],
};

/** The sign-up field a server's refusal is about, when it is about one. */
function signUpFieldOf(answer: AuthAnswer): SignUpField | undefined {
  if (answer.status === 422) return "email";
  if (answer.code === "PASSWORD_TOO_SHORT" || answer.code === "PASSWORD_TOO_LONG") return "password";
  return answer.field && answer.field in signUpControls ? (answer.field as SignUpField) : undefined;
}

export function SignUpForm({
  entries,
  setEntry,
  onModeChange,
  onSignedIn,
  courseOptions,
}: AuthFormProps & { onSignedIn(): void; courseOptions: readonly string[] }) {
  const problem = useFormProblem("signup-message");
  const [busy, setBusy] = useState(false);
  const set = (field: SignUpField) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setEntry(field, event.target.value);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // The sign-up rules, in order; the server runs the same ones again.
    const issue = firstSignUpIssue(entries, courseOptions);
    if (issue) return problem.show(issue.message, issue.field ? signUpControls[issue.field] : []);
    setBusy(true);
    problem.clear();
    const answer = await postAuth("/sign-up/email", entries);
    setBusy(false);
    if (answer.ok) return onSignedIn();
    const field = signUpFieldOf(answer);
    problem.show(answer.status === 422 ? messages.emailTaken : answer.message, field ? signUpControls[field] : []);
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-3" aria-busy={busy}>
      <Field
        id="signup-username"
        label="Username"
        value={entries.username}
        onChange={set("username")}
        autoComplete="username"
        autoFocus
        {...problem.describe("signup-username")}
      />
      {/* A text field: HTML lets the national number's autofill (10 digits, no +91) fill text
          fields only, not tel ones; inputMode gives the same numeric keypad. */}
      <Field
        id="signup-phone"
        label="Phone"
        value={entries.phone}
        onChange={set("phone")}
        autoComplete="tel-national"
        inputMode="numeric"
        maxLength={10}
        {...problem.describe("signup-phone")}
      />
      <div>
        <label htmlFor="signup-course" className={fieldLabel}>
          Course
        </label>
        <select
          id="signup-course"
          name="course"
          value={entries.course}
          onChange={set("course")}
          className={fieldInput}
          {...problem.describe("signup-course")}
        >
          <CourseOptions options={courseOptions} />
        </select>
      </div>
      <GenderChoice value={entries.gender} onChange={set("gender")} describe={problem.describe} />
      <Field
        id="signup-email"
        label="Email"
        type="email"
        value={entries.email}
        onChange={set("email")}
        autoComplete="email"
        {...problem.describe("signup-email")}
      />
      <NewPasswordFields
        password={{
          id: "signup-password",
          label: "Password",
          value: entries.password,
          onChange: (value) => setEntry("password", value),
        }}
        confirm={{
          id: "signup-confirm-password",
          label: "Confirm Password",
          value: entries.confirmPassword,
          onChange: (value) => setEntry("confirmPassword", value),
        }}
        hintId="signup-password-hint"
        describe={problem.describe}
      />
      <ErrorLine id="signup-message" message={problem.message} />
      <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
        Sign up
      </button>
      <p className="text-center text-sm text-slate-700">
        Already have an account?{" "}
        <button type="button" className={linkButton} onClick={() => onModeChange("login")}>
          Log in
        </button>
      </p>
    </form>
  );
}

function GenderChoice({
  value,
  onChange,
  describe,
}: {
  value: string;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
  describe: ReturnType<typeof useFormProblem>["describe"];
}) {
  return (
    <fieldset>
      <legend className={fieldLabel}>Gender</legend>
      <div className="mt-1 flex gap-6">
        {genders.map((gender) => (
          <label key={gender.value} className="inline-flex items-center gap-2 text-slate-800">
            <input
              id={genderControl(gender.value)}
              type="radio"
              name="gender"
              value={gender.value}
              checked={value === gender.value}
              onChange={onChange}
              className="h-4 w-4 accent-blue-800 aria-invalid:outline-2 aria-invalid:outline-offset-2 aria-invalid:outline-red-700"
              {...describe(genderControl(gender.value))}
            />
            {gender.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
