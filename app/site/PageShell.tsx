import { Link } from "react-router";
import { Logo } from "~/ui/Logo";
import { useSiteInfo } from "./use-site-info";

/** The frame of every public page other than the landing page: a slim top bar and <main>. */
export function PageShell({ children, wide = false }: { children: React.ReactNode; wide?: boolean }) {
  const { site } = useSiteInfo();
  return (
    <>
      <header className="border-b border-slate-200 bg-white px-4">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4">
          <Link to="/" className="rounded-md" aria-label={`${site.name} home`}>
            <Logo name={site.name} logo={site.logo} />
          </Link>
          <Link to="/" className="rounded-md px-3 py-2 font-medium text-blue-800 hover:bg-blue-50">
            Back to home
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className={`mx-auto px-4 py-12 sm:py-16 ${wide ? "max-w-6xl" : "max-w-3xl"}`}>
        {children}
      </main>
    </>
  );
}

/** Headings, paragraphs and lists of a policy page, styled without a typography plugin. */
export function PolicyBody({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: React.ReactNode;
}) {
  return (
    <article className="policy">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">Last updated: {updated}</p>
      {children}
    </article>
  );
}
