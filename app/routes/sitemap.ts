import { getServices } from "~/platform/services.server";
import { publicPaths } from "~/site/public-pages";

export async function loader() {
  const { config } = await getServices();
  const urls = publicPaths
    .map(
      (path) =>
        `  <url><loc>${config.appUrl}${path}</loc><changefreq>${path === "/" ? "weekly" : "monthly"}</changefreq></url>`,
    )
    .join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
