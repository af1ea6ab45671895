import { Form, Link, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { NewPasswordFields } from "~/accounts/PasswordFields";
import { ErrorLine } from "~/ui/form";
import { completePasswordReset, resetTokenOwner } from "~/accounts/password-reset.server";
import { getServices } from "~/platform/services.server";
import { hasControlCharacters } from "~/core/text";
import { PageShell } from "~/site/PageShell";
import { signedInLanding } from "~/accounts/signed-in-landing";
import { primaryButton } from "~/ui/styles";

export const meta: Route.MetaFunction = () => [
  { title: "Reset your password" },
  { name: "robots", content: "noindex" },
  // The token is in this page's address: keep it out of other sites' logs.
  { name: "referrer", content: "no-referrer" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const owner = await resetTokenOwner((await getServices()).auth, token);
  // An invitation (an imported learner's first password) is a reset link with other words.
  return { linkValid: owner !== null, token: owner ? token : "", invitation: url.searchParams.get("invite") === "1" };
}

export async function action({ request }: Route.ActionArgs) {
  // A body that isn't a form (a script posting text) is the client's mistake, not ours.
  const form = await request.formData().catch(() => null);
  if (!form) throw data("Send the form's fields.", { status: 400 });
  const token = String(form.get("token") || new URL(request.url).searchParams.get("token") || "");
  const password = String(form.get("password") ?? "");
  const confirmPassword = String(form.get("confirmPassword") ?? "");
  if (!password) return { error: "Password is required.", linkValid: true };
  if (!confirmPassword) return { error: "Confirm Password is required.", linkValid: true };
  if (password !== confirmPassword) return { error: "Passwords do not match!", linkValid: true };

  if (token.length > 200 || hasControlCharacters(token)) return { error: "", linkValid: false };
  const outcome = await completePasswordReset((await getServices()).auth, request, token, password);
  if (outcome.status === "link-invalid") return { error: "", linkValid: false };
  if (outcome.status === "refused") return { error: outcome.message, linkValid: true };
  if (outcome.cookies.length === 0) throw redirect("/?auth=login");
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  // An invitation's new account starts where its role does (staff on /staff, learners at home).
  const invited = form.get("invite") === "1";
  throw redirect(invited ? signedInLanding : "/?changed=password", { headers });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const linkValid = actionData ? actionData.linkValid : loaderData.linkValid;
  const { invitation } = loaderData;

  return (
    <PageShell>
      <div className="mx-auto max-w-md">
        <h1 className="text-3xl font-bold text-slate-900">
          {invitation ? "Choose your password" : "Reset your password"}
        </h1>
        {linkValid ? (
          <Form method="post" noValidate className="mt-6 space-y-4">
            <input type="hidden" name="token" value={loaderData.token} />
            {invitation && <input type="hidden" name="invite" value="1" />}
            <NewPasswordFields
              password={{ id: "new-password", name: "password", label: "New Password" }}
              confirm={{ id: "confirm-new-password", name: "confirmPassword", label: "Confirm New Password" }}
            />
            <ErrorLine message={actionData?.error} />
            <button type="submit" className={`${primaryButton} w-full`} disabled={navigation.state === "submitting"}>
              Set New Password
            </button>
          </Form>
        ) : (
          <div className="mt-6 space-y-4">
            <ErrorLine
              message={
                invitation
                  ? "This invitation link has expired or has already been used."
                  : "This password reset link has expired or has already been used."
              }
            />
            <p className="text-slate-700">
              {invitation
                ? "Invitation links work once and for a week. Ask for a password reset link instead and use it soon."
                : "Reset links work once and for one hour. Ask for a new one and use it soon."}
            </p>
            <Link to="/?auth=reset" className={primaryButton}>
              Ask for a new link
            </Link>
          </div>
        )}
      </div>
    </PageShell>
  );
}
