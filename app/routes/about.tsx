import type { Route } from "./+types/about";
import { getServices } from "~/platform/services.server";
import { PageShell } from "~/site/PageShell";
import { paragraphsOf } from "~/site/proof-rules";
import { aboutPageText } from "~/site/proof.server";
import { pageMeta, rootInfo } from "~/site/seo";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "About",
    description: "About our software development company and training institute in Baner, Pune.",
    path: "/about",
  });

/** The text admins keep on /staff/site (the institute's About Us copy until they change it). */
export async function loader() {
  const { database } = await getServices();
  return { paragraphs: paragraphsOf(await aboutPageText(database.db)) };
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">About</h1>
      <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-700">
        {loaderData.paragraphs.map((paragraph, index) => (
          <p key={index}>{paragraph}</p>
        ))}
      </div>
    </PageShell>
  );
}
