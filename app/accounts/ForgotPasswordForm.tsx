import { useState } from "react";
import { textLimits } from "~/core/text";
import { ErrorLine, Field, useFormProblem } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { postAuth } from "./auth-client";
import type { AuthFormProps } from "./auth-form-props";
import { isEmailAddress, messages } from "./messages";

export function ForgotPasswordForm({ entries, setEntry, onModeChange }: AuthFormProps) {
  const problem = useFormProblem("reset-message");
  const toast = useToast();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const email = entries.email;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSent(false);
    if (!email) return problem.show(messages.emailRequired, ["reset-email"]);
    if (email.length > textLimits.email || !isEmailAddress(email)) {
      return problem.show(messages.resetEmailInvalid, ["reset-email"]);
    }
    setBusy(true);
    problem.clear();
    const answer = await postAuth("/request-password-reset", { email, redirectTo: "/reset-password" });
    setBusy(false);
    if (!answer.ok) return problem.show(answer.message, answer.field === "email" ? ["reset-email"] : []);
    setSent(true);
    toast.success(messages.resetToast);
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-busy={busy}>
      <p className="text-sm text-slate-700">
        Enter the email of your account and we will send you a link to set a new password.
      </p>
      <Field
        id="reset-email"
        label="Email"
        type="email"
        value={email}
        onChange={(event) => setEntry("email", event.target.value)}
        autoComplete="email"
        autoFocus
        {...problem.describe("reset-email")}
      />
      <ErrorLine id="reset-message" message={problem.message} />
      {sent && (
        <>
          <p className="text-sm font-medium text-green-800">{messages.resetSent}</p>
          <p className="text-sm text-slate-700">{messages.resetMaybe}</p>
        </>
      )}
      <div className="flex flex-col gap-2 sm:flex-row-reverse">
        <button type="submit" className={`${primaryButton} sm:flex-1`} disabled={busy}>
          Reset Password
        </button>
        <button
          type="button"
          className="inline-flex items-center justify-center rounded-md border border-slate-400 px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50 sm:flex-1"
          onClick={() => onModeChange("login")}
        >
          Back to Login
        </button>
      </div>
    </form>
  );
}
