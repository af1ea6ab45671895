import { handleAuthRequest } from "~/accounts/auth-handler.server";
import { getAuth } from "~/accounts/auth.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.auth.$";

/** better-auth's endpoints under /api/auth/ (sign-in, sign-up, sign-out, session, reset). */
async function handle(request: Request) {
  const [auth, { config }] = await Promise.all([getAuth(), getServices()]);
  return handleAuthRequest(auth, request, config.appUrl);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
