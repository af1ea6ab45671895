import { getServices } from "~/platform/services.server";

export async function loader() {
  const { config } = await getServices();
  const body = [
    "User-agent: *",
    "Disallow: /dashboard",
    "Disallow: /api/",
    "Allow: /",
    "",
    `Sitemap: ${config.appUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
