import { Link } from "react-router";
import { ActionForm } from "~/ui/ActionForm";
import { primaryButton } from "~/ui/styles";
import type { PreviewPage } from "./preview-page.server";
import { sectionNames, type SectionKey } from "./section-types";

const pages: { page: PreviewPage; label: string }[] = [
  { page: "home", label: "Home page" },
  { page: "privacy", label: "Privacy Policy" },
  { page: "refund", label: "Refund Policy" },
  { page: "terms", label: "Terms and Conditions" },
];

/** Above the previewed page: what it is, the other pages, and Publish. */
export function PreviewBar({ page, drafts }: { page: PreviewPage; drafts: SectionKey[] }) {
  return (
    <aside aria-label="Preview" className="border-b-4 border-amber-400 bg-amber-50 px-4 py-3 text-slate-900">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2">
        <p className="font-semibold">
          Preview: this is how visitors will see the site once you publish.{" "}
          <span className="font-normal">
            {drafts.length === 0
              ? "No drafts: visitors see this now."
              : `Drafts: ${drafts.map((key) => sectionNames[key]).join(", ")}.`}
          </span>
        </p>
        <nav aria-label="Preview pages">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {pages.map((item) => (
              <li key={item.page}>
                <Link
                  to={`/staff/site/preview?page=${item.page}`}
                  aria-current={item.page === page ? "page" : undefined}
                  className="text-blue-900 underline aria-[current=page]:font-bold aria-[current=page]:no-underline"
                >
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/staff/site" className="text-blue-900 underline">
                Back to the editor
              </Link>
            </li>
          </ul>
        </nav>
        {drafts.length > 0 && (
          <ActionForm intent="publish" action="/staff/site" label="Publish" className="ml-auto">
            <button type="submit" className={primaryButton}>
              Publish
            </button>
          </ActionForm>
        )}
      </div>
    </aside>
  );
}
