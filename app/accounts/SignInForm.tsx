import { useState } from "react";
import { ErrorLine, Field, useFormProblem } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { postAuth, type AuthAnswer } from "./auth-client";
import type { AuthFormProps } from "./auth-form-props";
import { linkButton } from "./form-styles";
import { CurrentPasswordField } from "./PasswordFields";

/** The sign-in controls a refusal is about: a wrong pair, both (the password to retype first). */
function signInControls(answer: AuthAnswer): string[] {
  if (answer.field === "email") return ["signin-email"];
  if (answer.field === "password") return ["signin-password"];
  if (answer.status === 401) return ["signin-password", "signin-email"];
  return [];
}

export function SignInForm({ entries, setEntry, onModeChange, onSignedIn }: AuthFormProps & { onSignedIn(): void }) {
  const problem = useFormProblem("signin-message");
  const [busy, setBusy] = useState(false);

  // Sign-in has no client checks: the server's answer is shown as it is.
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    problem.clear();
    const answer = await postAuth("/sign-in/email", { email: entries.email, password: entries.password });
    setBusy(false);
    if (answer.ok) onSignedIn();
    else problem.show(answer.message, signInControls(answer));
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-busy={busy}>
      <Field
        id="signin-email"
        label="Email"
        type="email"
        value={entries.email}
        onChange={(event) => setEntry("email", event.target.value)}
        autoComplete="email"
        autoFocus
        {...problem.describe("signin-email")}
      />
      <CurrentPasswordField
        input={{
          id: "signin-password",
          label: "Password",
          value: entries.password,
          onChange: (value) => setEntry("password", value),
        }}
        describe={problem.describe}
      />
      <div className="text-right text-sm">
        <button type="button" className={linkButton} onClick={() => onModeChange("forgot")}>
          Forgot Password
        </button>
      </div>
      <ErrorLine id="signin-message" message={problem.message} />
      <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
        Log in
      </button>
      <p className="text-center text-sm text-slate-700">
        Don&apos;t have an account?{" "}
        <button type="button" className={linkButton} onClick={() => onModeChange("signup")}>
          Sign up
        </button>
      </p>
    </form>
  );
}
