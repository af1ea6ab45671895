import { data, redirect } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta, rootInfo } from "~/site/seo";
import { publicPaths } from "~/site/public-pages";

const canonicalByLowerCase = new Map(publicPaths.map((path) => [path.toLowerCase(), path]));

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // /privacypolicy, /PRIVACYPOLICY… reach the page under its one canonical spelling.
  const canonical = canonicalByLowerCase.get(url.pathname.replace(/\/+$/, "").toLowerCase());
  if (canonical && canonical !== url.pathname) throw redirect(`${canonical}${url.search}`, 301);
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(rootInfo(matches), {
    title: "NotFound",
    description: "There is no page at this address.",
    path: location.pathname,
    noindex: true,
  });

export default function NotFound() {
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="text-4xl font-bold">NotFound</h1>
      <p className="mt-4 text-slate-700">There is no page at this address.</p>
      <a
        href="/"
        className="mt-8 inline-block rounded-md bg-blue-800 px-5 py-3 font-semibold text-white hover:bg-blue-900"
      >
        Back to the home page
      </a>
    </main>
  );
}
