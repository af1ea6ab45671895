import { Form, Link, data, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe";
import { unsubscribe, unsubscribePage } from "~/mail/unsubscribe-page.server";
import { getServices } from "~/platform/services.server";
import { PageShell } from "~/site/PageShell";
import { primaryButton, secondaryButton } from "~/ui/styles";

export const meta: Route.MetaFunction = () => [
  { title: "Email notifications" },
  { name: "robots", content: "noindex" },
  // The token is in this page's address: keep it out of other sites' logs.
  { name: "referrer", content: "no-referrer" },
];

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

const statusOf = (view: { status: string }) => (view.status === "valid" ? 200 : view.status === "expired" ? 410 : 400);

export async function loader({ request }: Route.LoaderArgs) {
  const services = await getServices();
  const view = await unsubscribePage(
    { db: services.database.db, unsubscribeKey: services.unsubscribeKey },
    tokenOf(request),
  );
  return data(view, { status: statusOf(view) });
}

/**
 * A mail provider's one-click POST (RFC 8058: the body is "List-Unsubscribe=One-Click") turns
 * off what the link is about; so does the page's first button. 'Turn off all' turns off every kind.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  if (!form) throw data("Send the form's fields.", { status: 400 });
  const services = await getServices();
  const scope = form.get("intent") === "turn-off-all" ? "all" : "link";
  const view = await unsubscribe(
    { db: services.database.db, unsubscribeKey: services.unsubscribeKey },
    tokenOf(request),
    scope,
  );
  return data(view, { status: statusOf(view) });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <PageShell>
      <div className="mx-auto max-w-xl">
        <h1 className="text-3xl font-bold text-slate-900">Email notifications</h1>
        {view.status !== "valid" ? (
          <p className="mt-4 text-slate-800">{view.message}</p>
        ) : (
          <>
            {view.done ? (
              <p role="status" className="mt-4 rounded-md bg-green-50 p-3 font-medium text-green-900">
                {view.done}
              </p>
            ) : (
              <p className="mt-4 text-slate-800">
                {view.alreadyOff
                  ? `Emails about ${view.about} to ${view.email} are off.`
                  : `Stop emails about ${view.about} to ${view.email}?`}
              </p>
            )}
            <Form method="post" className="mt-6 flex flex-wrap gap-3">
              {!view.alreadyOff && (
                <button type="submit" name="intent" value="turn-off" className={primaryButton} disabled={busy}>
                  {`Turn off emails about ${view.about}`}
                </button>
              )}
              {!view.allOff && (
                <button type="submit" name="intent" value="turn-off-all" className={secondaryButton} disabled={busy}>
                  Turn off all
                </button>
              )}
            </Form>
            <p className="mt-6 text-sm text-slate-700">
              {"You can turn them on again under Email notifications on your "}
              <Link to="/settings" className="font-medium text-blue-800 underline">
                Settings
              </Link>
              {" page"}. Emails about your account, such as a password reset, always come.
            </p>
          </>
        )}
      </div>
    </PageShell>
  );
}
