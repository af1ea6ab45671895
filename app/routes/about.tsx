import type { Route } from "./+types/about";
import { PageShell } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "About",
    description: "About our software development company and training institute in Baner, Pune.",
    path: "/about",
  });

/** The spec keeps /about a placeholder that only says About. */
export default function AboutPage() {
  return (
    <PageShell>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">About</h1>
    </PageShell>
  );
}
