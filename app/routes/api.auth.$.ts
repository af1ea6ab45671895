import { handleAuthRequest } from "~/accounts/auth-handler.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.auth.$";

/** better-auth's endpoints under /api/auth/ (sign-in, sign-up, sign-out, session, reset). */
async function handle(request: Request) {
  const { auth } = await getServices();
  return handleAuthRequest(auth, request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
