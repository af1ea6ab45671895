import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useState } from "react";
import { signUpCourses } from "~/content/site-content";
import { primaryButton } from "~/ui/styles";
import { postAuth } from "./auth-client";
import { ErrorLine, Field } from "~/ui/form";
import { fieldInput, fieldLabel, linkButton } from "./form-styles";
import { textLimits } from "~/security/text";
import { isEmailAddress, messages } from "./messages";
import { firstSignUpProblem, genders } from "./sign-up-schema";
import { Toast } from "./Toast";

export type AuthMode = "login" | "signup" | "forgot";

const titles: Record<AuthMode, string> = { login: "Log in", signup: "Sign up", forgot: "Forgot Password" };

export interface AuthModalProps {
  mode: AuthMode;
  onModeChange(mode: AuthMode): void;
  onClose(): void;
  /** After a successful sign-in or sign-up (the session cookie is set). */
  onSignedIn(): void;
  /** What had focus when the modal opened: it gets it back on close. */
  returnFocusTo?: HTMLElement | null;
}

/** The sign-in / sign-up / forgot-password dialog. */
export default function AuthModal({ mode, onModeChange, onClose, onSignedIn, returnFocusTo }: AuthModalProps) {
  const [toast, setToast] = useState("");
  const clearToast = useCallback(() => setToast(""), []);
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
            {mode === "login" && <SignInForm onModeChange={onModeChange} onSignedIn={onSignedIn} />}
            {mode === "signup" && <SignUpForm onModeChange={onModeChange} onSignedIn={onSignedIn} />}
            {mode === "forgot" && <ForgotForm onModeChange={onModeChange} onSent={setToast} />}
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

function SignInForm({ onModeChange, onSignedIn }: Pick<AuthModalProps, "onModeChange" | "onSignedIn">) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  // Sign-in has no client checks: the server's answer is shown as it is.
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    const answer = await postAuth("/sign-in/email", { email, password });
    setBusy(false);
    if (answer.ok) onSignedIn();
    else setError(answer.message);
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-busy={busy}>
      <Field
        id="signin-email"
        label="Email"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        autoComplete="email"
        autoFocus
      />
      <Field
        id="signin-password"
        label="Password"
        type="password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        autoComplete="current-password"
      />
      <div className="text-right text-sm">
        <button type="button" className={linkButton} onClick={() => onModeChange("forgot")}>
          Forgot Password
        </button>
      </div>
      <ErrorLine message={error} />
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

function SignUpForm({ onModeChange, onSignedIn }: Pick<AuthModalProps, "onModeChange" | "onSignedIn">) {
  const [form, setForm] = useState({
    username: "",
    phone: "",
    course: "",
    gender: "",
    email: "",
    password: "",
    confirmPassword: "",
  });
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // The sign-up rules, in order; the server runs the same ones again.
    const problem = firstSignUpProblem(form);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError("");
    const answer = await postAuth("/sign-up/email", form);
    setBusy(false);
    if (answer.ok) onSignedIn();
    else if (answer.status === 422) setError(messages.emailTaken);
    else setError(answer.message);
  };

  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-3" aria-busy={busy}>
      <Field
        id="signup-username"
        label="Username"
        value={form.username}
        onChange={(event) => set("username")(event.target.value)}
        autoComplete="username"
        autoFocus
      />
      <Field
        id="signup-phone"
        label="Phone"
        type="tel"
        value={form.phone}
        onChange={(event) => set("phone")(event.target.value)}
        autoComplete="tel-national"
        inputMode="numeric"
        maxLength={10}
      />
      <div>
        <label htmlFor="signup-course" className={fieldLabel}>
          Course
        </label>
        <select
          id="signup-course"
          name="course"
          value={form.course}
          onChange={(event) => set("course")(event.target.value)}
          className={fieldInput}
        >
          <option value="">Select a course</option>
          {signUpCourses.map((course) => (
            <option key={course} value={course}>
              {course}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend className={fieldLabel}>Gender</legend>
        <div className="mt-1 flex gap-6">
          {genders.map((gender) => (
            <label key={gender.value} className="inline-flex items-center gap-2 text-slate-800">
              <input
                type="radio"
                name="gender"
                value={gender.value}
                checked={form.gender === gender.value}
                onChange={() => set("gender")(gender.value)}
                className="h-4 w-4 accent-blue-800"
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
        value={form.email}
        onChange={(event) => set("email")(event.target.value)}
        autoComplete="email"
      />
      <Field
        id="signup-password"
        label="Password"
        type="password"
        value={form.password}
        onChange={(event) => set("password")(event.target.value)}
        autoComplete="new-password"
      />
      <Field
        id="signup-confirm-password"
        label="Confirm Password"
        type="password"
        value={form.confirmPassword}
        onChange={(event) => set("confirmPassword")(event.target.value)}
        autoComplete="new-password"
      />
      <ErrorLine message={error} />
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

function ForgotForm({ onModeChange, onSent }: { onModeChange(mode: AuthMode): void; onSent(toast: string): void }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState("");
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSent(false);
    if (!email) return setError(messages.emailRequired);
    if (email.length > textLimits.email || !isEmailAddress(email)) return setError(messages.resetEmailInvalid);
    setBusy(true);
    setError("");
    const answer = await postAuth("/request-password-reset", { email, redirectTo: "/reset-password" });
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
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
        onChange={(event) => setEmail(event.target.value)}
        autoComplete="email"
        autoFocus
      />
      <ErrorLine message={error} />
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
