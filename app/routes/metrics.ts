import { authorizeMetrics } from "~/accounts/permissions.server";
import { socketAddressContext } from "~/http/request-context";
import { renderMetrics } from "~/metrics/metrics.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/metrics";

/** This instance's metrics in Prometheus's text format, for a scraper (see authorizeMetrics). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = await getServices();
  const access = authorizeMetrics(request, context.get(socketAddressContext), config);
  const headers = { "Cache-Control": "no-store" };
  if (!access.ok) {
    return access.status === 401
      ? new Response("A bearer token is required.\n", {
          status: 401,
          headers: {
            ...headers,
            "Content-Type": "text/plain; charset=utf-8",
            "WWW-Authenticate": 'Bearer realm="metrics"',
          },
        })
      : new Response("Not found\n", {
          status: 404,
          headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
        });
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { ...headers, "Content-Type": contentType } });
}
