import { useState } from "react";
import { ErrorLine, Field, useFormProblem } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { postAuth, type AuthAnswer } from "./auth-client";
import type { AuthFormProps } from "./auth-form-props";
import { linkButton } from "./form-styles";
import { messages } from "./messages";
import { NewPasswordFields } from "./PasswordFields";
import { ProfileInputs, profileControls } from "./ProfileInputs";
import { firstSignUpIssue, profileFieldNames, type ProfileField, type SignUpField } from "./sign-up-schema";

/** The ids of the controls of a sign-up field (a choice's radios each). */
const signUpControls: Record<SignUpField, string[]> = {
  ...(Object.fromEntries(profileFieldNames.map((name) => [name, profileControls("signup", name)])) as Record<
    ProfileField,
    string[]
  >),
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
      <ProfileInputs
        prefix="signup"
        names={profileFieldNames}
        values={entries}
        onChange={setEntry}
        courseOptions={courseOptions}
        describe={problem.describe}
        autoFocus
      />
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
