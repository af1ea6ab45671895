import { useState } from "react";
import { CurrentPasswordField } from "~/accounts/PasswordFields";
import { accountDeletionSchema, deletionConfirmationWord, deletionGraceDays } from "~/learners/account-deletion";
import { card, dangerButton, secondaryButton } from "~/ui/styles";
import { ErrorLine, Field, useFormProblem } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";

/** The learner's rights over their data: a copy of it, and leaving. */
export function DataRights() {
  return (
    <section aria-labelledby="data-heading" className={`${card} mt-6`}>
      <h2 id="data-heading" className="text-xl font-bold text-slate-900">
        Your data
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        A ZIP file with everything we store about you: your profile, messages, links, files, emails and sign-ins, with a
        README explaining each part.
      </p>
      <a href="/api/my-data" download className={`${secondaryButton} mt-3`}>
        Download my data
      </a>
      <DeleteAccount />
    </section>
  );
}

function DeleteAccount() {
  const [form, setForm] = useState({ password: "", confirmation: "" });
  const problem = useFormProblem("delete-account-error");
  const show = (message: string, field?: string) => problem.show(message, field ? [`delete-${field}`] : []);
  const remove = useAction();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    problem.clear();
    remove.submit(
      { intent: "delete-account", ...form },
      {
        inline: true,
        schema: accountDeletionSchema,
        onDone: (answer) => {
          if (!answer.ok) return show(answer.message, answer.field);
          // Signed out: a whole new page, so nothing of the session stays in memory.
          window.location.assign("/account-deleted");
        },
      },
    );
  };

  return (
    <div className="mt-6 border-t border-slate-200 pt-4">
      <h3 className="text-lg font-bold text-slate-900">Delete my account</h3>
      <p id="delete-account-hint" className="mt-1 text-sm text-slate-700">
        {`You are signed out everywhere at once. ${deletionGraceDays} days later your profile, resume, photo, messages and links are erased; signing in before then keeps your account. The institute keeps its record of what staff did, without your name.`}
      </p>
      <form onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:max-w-md" aria-busy={remove.busy}>
        <CurrentPasswordField
          input={{
            id: "delete-password",
            label: "Password",
            value: form.password,
            onChange: (password) => setForm({ ...form, password }),
          }}
          describe={(id) => problem.describe(id, "delete-account-hint")}
        />
        <Field
          id="delete-confirmation"
          label={`Type ${deletionConfirmationWord} to confirm`}
          autoComplete="off"
          value={form.confirmation}
          onChange={(event) => setForm({ ...form, confirmation: event.target.value })}
          {...problem.describe("delete-confirmation")}
        />
        <ErrorLine id="delete-account-error" message={problem.message} />
        <div>
          <button type="submit" className={dangerButton} disabled={remove.busy}>
            Delete my account
          </button>
        </div>
        <LostChange action={remove} />
      </form>
    </div>
  );
}
