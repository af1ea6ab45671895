import type { MetaDescriptor } from "react-router";
import type { PublicSiteInfo } from "./site-info.server";

/** Title, description, canonical URL and Open Graph tags for a public page. */
export function pageMeta(
  info: PublicSiteInfo | undefined,
  page: { title: string; description: string; path: string; noindex?: boolean },
): MetaDescriptor[] {
  const siteName = info?.site.name ?? "Upskill";
  const base = info?.appUrl ?? "";
  const url = `${base}${page.path}`;
  const title = page.path === "/" ? page.title : `${page.title} | ${siteName}`;
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${base}/og-image.png` },
    ...(page.noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** The root loader's data as seen from a route's meta function. */
export function rootInfo(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  return matches.find((match) => match?.id === "root")?.loaderData as PublicSiteInfo | undefined;
}

/** A signed-in page's title: "<page> · <site name>". */
export function pageTitle(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, page: string) {
  return `${page} · ${rootInfo(matches)?.site.name ?? "Upskill"}`;
}

/** Signed-in pages are private: no search engine lists them. */
export function signedInMeta(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, page: string) {
  return [{ title: pageTitle(matches, page) }, { name: "robots", content: "noindex" }];
}
