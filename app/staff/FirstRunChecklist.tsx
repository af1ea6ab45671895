import { useId } from "react";
import { Link } from "react-router";
import { ActionForm } from "~/ui/ActionForm";
import { secondaryButton } from "~/ui/styles";
import { firstRunItems, type FirstRunItemKey } from "./first-run-items";

/**
 * The admins' first-run checklist at the top of /staff: each item links to where it is done and
 * ticks itself once the data says so (first-run.server.ts); it goes once all are done, or for
 * every admin once one dismisses it.
 */
export function FirstRunChecklist({ items }: { items: { key: FirstRunItemKey; done: boolean }[] }) {
  const headingId = useId();
  const done = new Set(items.filter((item) => item.done).map((item) => item.key));
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 rounded-xl border border-blue-200 bg-blue-50 p-4"
      data-testid="first-run"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-bold text-slate-900">
            Set up your institute
          </h2>
          <p className="text-sm text-slate-700">
            {done.size} of {firstRunItems.length} done. Each item ticks itself when it is done.
          </p>
        </div>
        <ActionForm intent="dismiss-first-run" label="Hide the checklist">
          <button type="submit" className={secondaryButton}>
            Hide this checklist
          </button>
        </ActionForm>
      </div>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {firstRunItems.map((item) => {
          const isDone = done.has(item.key);
          return (
            <li key={item.key} className="flex items-start gap-2" data-done={isDone}>
              <span
                aria-hidden="true"
                className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full border text-xs font-bold ${
                  isDone ? "border-green-800 bg-green-800 text-white" : "border-slate-500 bg-white text-transparent"
                }`}
              >
                ✓
              </span>
              <span>
                <Link to={item.to} className="font-medium text-blue-800 underline underline-offset-4">
                  {item.label}
                </Link>
                <span className={isDone ? "text-green-900" : "sr-only"}>{isDone ? " (done)" : " (to do)"}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
