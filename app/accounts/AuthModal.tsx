import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useState } from "react";
import { primaryButton } from "~/ui/styles";
import { postAuth, type AuthAnswer } from "./auth-client";
import { CourseOptions, ErrorLine, Field, useFormProblem } from "~/ui/form";
import { fieldInput, fieldLabel, linkButton } from "./form-styles";
import { textLimits } from "~/core/text";
import { isEmailAddress, messages } from "./messages";
import { firstSignUpIssue, genders, passwordMinLength, type SignUpField } from "./sign-up-schema";
import { Toast } from "./Toast";

export type AuthMode = "login" | "signup" | "forgot";

const titles: Record<AuthMode, string> = { login: "Log in", signup: "Sign up", forgot: "Forgot Password" };

export interface AuthModalProps {
  mode: AuthMode;
  /** The courses the sign-up form offers (admins keep them; the page's loader sends them). */
  courseOptions: readonly string[];
  onModeChange(mode: AuthMode): void;
  onClose(): void;
  /** After a successful sign-in or sign-up (the session cookie is set). */
  onSignedIn(): void;
  /** What had focus when the modal opened: it gets it back on close. */
  returnFocusTo?: HTMLElement | null;
}

/** What is typed in the modal. Kept here, above the three forms, so switching keeps the email and password. */
type Entries = Record<SignUpField, string>;

const noEntries: Entries = {
  username: "",
  phone: "",
  course: "",
  gender: "",
  email: "",
  password: "",
  confirmPassword: "",
};

interface FormProps {
  entries: Entries;
  setEntry(field: SignUpField, value: string): void;
  onModeChange(mode: AuthMode): void;
}

/** The sign-in / sign-up / forgot-password dialog. */
export default function AuthModal({
  mode,
  courseOptions,
  onModeChange,
  onClose,
  onSignedIn,
  returnFocusTo,
}: AuthModalProps) {
  const [toast, setToast] = useState("");
  const clearToast = useCallback(() => setToast(""), []);
  const [entries, setEntries] = useState(noEntries);
  const setEntry = useCallback(
    (field: SignUpField, value: string) => setEntries((current) => ({ ...current, [field]: value })),
    [],
  );
  const form = { entries, setEntry, onModeChange };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        {/* Content inside the overlay: a tall form scrolls, and fixed children (the toast) sit on the screen. */}
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center overflow-y-auto bg-slate-900/60 p-4">
          <Dialog.Content
            aria-describedby={undefined}
            // Radix returns focus to a Dialog.Trigger; this modal is opened from several places.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (returnFocusTo?.isConnected) returnFocusTo.focus();
            }}
            className="relative w-full max-w-md rounded-xl bg-white p-6 shadow-2xl sm:p-8"
          >
            <Dialog.Title className="text-2xl font-bold text-slate-900">{titles[mode]}</Dialog.Title>
            {mode === "login" && <SignInForm {...form} onSignedIn={onSignedIn} />}
            {mode === "signup" && <SignUpForm {...form} courseOptions={courseOptions} onSignedIn={onSignedIn} />}
            {mode === "forgot" && <ForgotForm {...form} onSent={setToast} />}
            <Dialog.Close
              className="absolute top-3 right-3 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              aria-label="Close"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor">
                <path strokeWidth="2" strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
              </svg>
            </Dialog.Close>
            <Toast message={toast} onDone={clearToast} />
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The sign-in controls a refusal is about: a wrong pair, both (the password to retype first). */
function signInControls(answer: AuthAnswer): string[] {
  if (answer.field === "email") return ["signin-email"];
  if (answer.field === "password") return ["signin-password"];
  if (answer.status === 401) return ["signin-password", "signin-email"];
  return [];
}

function SignInForm({ entries, setEntry, onModeChange, onSignedIn }: FormProps & Pick<AuthModalProps, "onSignedIn">) {
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
      <Field
        id="signin-password"
        label="Password"
        type="password"
        value={entries.password}
        onChange={(event) => setEntry("password", event.target.value)}
        autoComplete="current-password"
        {...problem.describe("signin-password")}
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

function SignUpForm({
  entries,
  setEntry,
  onModeChange,
  onSignedIn,
  courseOptions,
}: FormProps & Pick<AuthModalProps, "onSignedIn" | "courseOptions">) {
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
      <Field
        id="signup-phone"
        label="Phone"
        type="tel"
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
                checked={entries.gender === gender.value}
                onChange={set("gender")}
                className="h-4 w-4 accent-blue-800 aria-invalid:outline-2 aria-invalid:outline-offset-2 aria-invalid:outline-red-700"
                {...problem.describe(genderControl(gender.value))}
              />
              {gender.label}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        id="signup-email"
        label="Email"
        type="email"
        value={entries.email}
        onChange={set("email")}
        autoComplete="email"
        {...problem.describe("signup-email")}
      />
      <div>
        <Field
          id="signup-password"
          label="Password"
          type="password"
          value={entries.password}
          onChange={set("password")}
          autoComplete="new-password"
          {...problem.describe("signup-password", "signup-password-hint")}
        />
        <p id="signup-password-hint" className="mt-1 text-sm text-slate-600">
          At least {passwordMinLength} characters.
        </p>
      </div>
      <Field
        id="signup-confirm-password"
        label="Confirm Password"
        type="password"
        value={entries.confirmPassword}
        onChange={set("confirmPassword")}
        autoComplete="new-password"
        {...problem.describe("signup-confirm-password")}
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

function ForgotForm({ entries, setEntry, onModeChange, onSent }: FormProps & { onSent(toast: string): void }) {
  const problem = useFormProblem("reset-message");
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
    onSent(messages.resetToast);
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
