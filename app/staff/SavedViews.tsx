import { useId, useState } from "react";
import { Link, useLocation } from "react-router";
import { Field } from "~/ui/form";
import { secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { saveViewSchema, type SavedView } from "./saved-view-fields";
import { viewQuery } from "./workspace-query";

const linkButton = "font-semibold text-blue-800 underline";

/**
 * The staff member's saved views: each a link that opens the list with its filters and sort
 * (the same link works for any staff member), and saving the list's current filters by name.
 */
export function SavedViews({ views }: { views: SavedView[] }) {
  const ids = useId();
  const location = useLocation();
  const toast = useToast();
  const action = useAction();
  const [name, setName] = useState("");
  const current = viewQuery(location.search);
  const shared = (view: SavedView) =>
    typeof window === "undefined" ? `/staff?view=${view.id}` : `${window.location.origin}/staff?view=${view.id}`;

  return (
    <details className="rounded-md border border-slate-300 bg-white px-3 py-2" open={views.length > 0}>
      <summary className="cursor-pointer font-semibold text-slate-900">
        Saved views{views.length > 0 ? ` (${views.length})` : ""}
      </summary>
      {views.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm">
          {views.map((view) => (
            <li key={view.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <Link
                to={`/staff?view=${view.id}`}
                className={`${linkButton} ${view.query === current ? "decoration-2" : ""}`}
                aria-current={view.query === current ? "page" : undefined}
              >
                {view.name}
              </Link>
              <button
                type="button"
                className="text-blue-800 underline"
                onClick={() => {
                  void navigator.clipboard?.writeText(shared(view)).then(
                    () => toast.success(`Link to "${view.name}" copied.`),
                    () => toast.error("Could not copy the link; copy it from the view's name instead."),
                  );
                }}
              >
                Copy link<span className="sr-only"> to {view.name}</span>
              </button>
              <button
                type="button"
                className="text-red-700 underline"
                disabled={action.busy}
                onClick={() => action.submit({ intent: "delete-view", viewId: view.id })}
              >
                Delete<span className="sr-only"> view {view.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          action.submit(
            { intent: "save-view", name, query: current },
            { schema: saveViewSchema, onDone: (answer) => answer.ok && setName("") },
          );
        }}
      >
        <Field
          id={`${ids}-name`}
          label="Save these filters and sort as"
          value={name}
          maxLength={80}
          onChange={(e) => setName(e.target.value)}
          beside={
            <button type="submit" className={secondaryButton} disabled={action.busy}>
              Save view
            </button>
          }
        />
      </form>
    </details>
  );
}
