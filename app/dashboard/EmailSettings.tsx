import { useState } from "react";
import {
  emailKindLabels,
  emailKinds,
  emailModeLabels,
  emailModes,
  type EmailMode,
  type EmailPreferences,
} from "~/mail/email-kinds";
import { card, primaryButton } from "~/ui/styles";
import { controlClass, ErrorLine, labelClass, useFormProblem } from "~/ui/form";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";

/** Which emails the learner gets: per kind, at once, in a daily digest, or none. */
export function EmailSettings({ preferences, digestHour }: { preferences: EmailPreferences; digestHour: number }) {
  const [form, setForm] = useState(preferences);
  // A change saved in another tab (or by an unsubscribe link) replaces the form's values unless
  // the learner has started editing them.
  const [shown, setShown] = useState(preferences);
  if (emailKinds.some((kind) => shown[kind] !== preferences[kind])) {
    setShown(preferences);
    if (emailKinds.every((kind) => form[kind] === shown[kind])) setForm(preferences);
  }
  const problem = useFormProblem("email-settings-error");
  const save = useAction();
  const toast = useToast();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    problem.clear();
    save.submit(
      { intent: "save-email-preferences", ...form },
      {
        inline: true,
        onDone: (answer) => (answer.ok ? toast.success(answer.message) : problem.show(answer.message, [])),
      },
    );
  };

  const digestTime = `${String(digestHour).padStart(2, "0")}:00`;
  return (
    <section aria-labelledby="email-settings-heading" className={`${card} mt-6`}>
      <h2 id="email-settings-heading" className="text-xl font-bold text-slate-900">
        Email notifications
      </h2>
      <p id="email-settings-hint" className="mt-1 text-sm text-slate-700">
        {`Choose when we email you about what staff send. The daily digest comes once a day, after ${digestTime}, listing what arrived. Emails about your account, such as a password reset, always come.`}
      </p>
      <form
        onSubmit={submit}
        noValidate
        className="mt-3 grid gap-3 sm:grid-cols-2"
        aria-busy={save.busy}
        aria-describedby="email-settings-hint"
      >
        {emailKinds.map((kind) => (
          <div key={kind}>
            <label htmlFor={`email-${kind}`} className={labelClass}>
              {emailKindLabels[kind].setting}
            </label>
            <select
              id={`email-${kind}`}
              name={kind}
              value={form[kind]}
              onChange={(event) => setForm({ ...form, [kind]: event.target.value as EmailMode })}
              className={controlClass}
            >
              {emailModes.map((mode) => (
                <option key={mode} value={mode}>
                  {emailModeLabels[mode]}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="sm:col-span-2">
          <ErrorLine id="email-settings-error" message={problem.message} />
          <button type="submit" className={primaryButton} disabled={save.busy}>
            Save email settings
          </button>
          <LostChange action={save} className="mt-2" />
        </div>
      </form>
    </section>
  );
}
