import { useState } from "react";
import { CurrentPasswordField, NewPasswordFields, type PasswordInput } from "~/accounts/PasswordFields";
import { ProfileInputs } from "~/accounts/ProfileInputs";
import {
  editableProfileFieldNames,
  passwordChangeSchema,
  profileEditSchemaFor,
  type EditableProfile,
} from "~/accounts/sign-up-schema";
import { card, primaryButton } from "~/ui/styles";
import { ErrorLine, useFormProblem } from "~/ui/form";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";

/** The person's own settings: the profile fields they change (phone and course), and the password. */
export function ProfileSettings({
  profile,
  courseOptions,
}: {
  profile: EditableProfile;
  courseOptions: readonly string[];
}) {
  return (
    <div className="mt-6 grid gap-6 md:grid-cols-2">
      <ProfileDetails profile={profile} courseOptions={courseOptions} />
      <PasswordChange />
    </div>
  );
}

function ProfileDetails({ profile, courseOptions }: { profile: EditableProfile; courseOptions: readonly string[] }) {
  const [form, setForm] = useState(profile);
  // What the server had when the form was last in step with it: a change from elsewhere (another
  // tab) replaces the form's values unless the learner has started editing them.
  const [shown, setShown] = useState(profile);
  const same = (a: EditableProfile, b: EditableProfile) =>
    editableProfileFieldNames.every((name) => a[name] === b[name]);
  if (!same(shown, profile)) {
    setShown(profile);
    if (same(form, shown)) setForm(profile);
  }
  const problem = useFormProblem("profile-error");
  /** A message about one of this form's fields goes there (inputs are `profile-<field>`). */
  const show = (message: string, field?: string) => problem.show(message, field ? [`profile-${field}`] : []);
  const save = useAction();
  const toast = useToast();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    problem.clear();
    save.submit(
      { intent: "update-profile", ...form },
      {
        inline: true,
        schema: profileEditSchemaFor(courseOptions),
        onDone: (answer) => {
          if (!answer.ok) return show(answer.message, answer.field);
          toast.success(answer.message);
        },
      },
    );
  };

  return (
    <section aria-labelledby="profile-heading" className={card}>
      <h2 id="profile-heading" className="text-xl font-bold text-slate-900">
        Your details
      </h2>
      <form onSubmit={submit} noValidate className="mt-3 space-y-3" aria-busy={save.busy}>
        <ProfileInputs
          prefix="profile"
          names={editableProfileFieldNames}
          values={form}
          onChange={(name, value) => setForm({ ...form, [name]: value })}
          courseOptions={courseOptions}
          describe={problem.describe}
        />
        <ErrorLine id="profile-error" message={problem.message} />
        <button type="submit" className={primaryButton} disabled={save.busy}>
          Save details
        </button>
        <LostChange action={save} />
      </form>
    </section>
  );
}

const emptyPasswords = { currentPassword: "", newPassword: "", confirmPassword: "" };

function PasswordChange() {
  const [form, setForm] = useState(emptyPasswords);
  const problem = useFormProblem("password-error");
  /** A message about one of this form's fields goes there (inputs are `password-<field>`). */
  const show = (message: string, field?: string) => problem.show(message, field ? [`password-${field}`] : []);
  const change = useAction();
  const toast = useToast();
  /** Inputs are `password-<field>`, so a message about a field finds its input. */
  const passwordInput = (field: keyof typeof form, label: string): PasswordInput => ({
    id: `password-${field}`,
    label,
    value: form[field],
    onChange: (value) => setForm({ ...form, [field]: value }),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    problem.clear();
    change.submit(
      { intent: "change-password", ...form },
      {
        inline: true,
        schema: passwordChangeSchema,
        onDone: (answer) => {
          if (!answer.ok) return show(answer.message, answer.field);
          setForm(emptyPasswords);
          toast.success(answer.message);
        },
      },
    );
  };

  return (
    <section aria-labelledby="password-heading" className={card}>
      <h2 id="password-heading" className="text-xl font-bold text-slate-900">
        Change password
      </h2>
      <p className="mt-1 text-sm text-slate-700">Your other devices are signed out when you change it.</p>
      <form onSubmit={submit} noValidate className="mt-3 space-y-3" aria-busy={change.busy}>
        <CurrentPasswordField
          input={passwordInput("currentPassword", "Current Password")}
          describe={problem.describe}
        />
        <NewPasswordFields
          password={passwordInput("newPassword", "New Password")}
          confirm={passwordInput("confirmPassword", "Confirm New Password")}
          hintId="password-rule"
          describe={problem.describe}
        />
        <ErrorLine id="password-error" message={problem.message} />
        <button type="submit" className={primaryButton} disabled={change.busy}>
          Change password
        </button>
        <LostChange action={change} />
      </form>
    </section>
  );
}
