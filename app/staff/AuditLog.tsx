import { useId, type FormEvent } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { auditActionNames, type StaffAction } from "~/core/audit-actions";
import { formatDateTime } from "~/core/dates";
import { Field, controlClass, labelClass } from "~/ui/form";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { primaryButton } from "~/ui/styles";
import type { AuditRow } from "./audit-log-query";
import type { loadAudit } from "./staff-page.server";

type AuditData = Awaited<ReturnType<typeof loadAudit>>;

const actionChoices = (Object.entries(auditActionNames) as [StaffAction, string][]).sort(([, a], [, b]) =>
  a.localeCompare(b),
);

const linkClass = "font-semibold text-blue-800 underline";

/** The address with these parameters changed ("" removes one). */
function withParams(search: string, changes: Record<string, string>): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  const query = params.toString();
  return `/staff/audit${query ? `?${query}` : ""}`;
}

/**
 * Staff actions newest first (admins only), filtered by who, action, learner and days, all in the
 * address; a row about a learner links to them, and a row that sent a text shows it.
 */
export function AuditLog({ data }: { data: AuditData }) {
  const { query, page, actors, learnerName, timeZone } = data;
  const { search } = useLocation();
  const navigate = useNavigate();
  const ids = useId();
  // The address names only the filters chosen (without JavaScript the form sends them all).
  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim()) chosen.set(name, value);
    }
    void navigate(withParams("", Object.fromEntries(chosen)));
  };
  const filtered = Boolean(query.who || query.action || query.learner || query.q || query.from || query.to);
  return (
    <>
      <StaffSubpageHeading title="Audit Log" />
      {/* Keyed by the address, so Back and Forward show the filters the address holds. */}
      <Form
        key={search}
        method="get"
        onSubmit={applyFilters}
        role="search"
        aria-label="Filter the audit log"
        className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_10rem_10rem]"
      >
        <div>
          <label htmlFor={`${ids}-who`} className={labelClass}>
            Who
          </label>
          <select id={`${ids}-who`} name="who" defaultValue={query.who} className={controlClass}>
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-action`} className={labelClass}>
            Action
          </label>
          <select id={`${ids}-action`} name="action" defaultValue={query.action} className={controlClass}>
            <option value="">Any action</option>
            {actionChoices.map(([action, name]) => (
              <option key={action} value={action}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {query.learner ? (
          <div>
            <input type="hidden" name="learner" value={query.learner} />
            <p className={labelClass}>Learner</p>
            <p className="mt-1 py-2 text-slate-900">
              <span className="font-semibold">{learnerName ?? "A learner who is no longer here"}</span>{" "}
              <Link to={withParams(search, { learner: "", before: "", after: "", text: "" })} className={linkClass}>
                Any learner
              </Link>
            </p>
          </div>
        ) : (
          <Field
            id={`${ids}-q`}
            name="q"
            type="search"
            label="Learner name or email"
            defaultValue={query.q}
            maxLength={200}
          />
        )}
        <Field id={`${ids}-from`} name="from" type="date" label="From" defaultValue={query.from} />
        <Field id={`${ids}-to`} name="to" type="date" label="To" defaultValue={query.to} />
        <div className="flex flex-wrap items-center gap-4 sm:col-span-2 lg:col-span-5">
          <button type="submit" className={primaryButton}>
            Filter
          </button>
          {filtered && (
            <Link to="/staff/audit" className={linkClass}>
              Clear the filters
            </Link>
          )}
        </div>
      </Form>
      {page.entries.length === 0 ? (
        <p className="mt-6 text-slate-900">
          {filtered || query.before || query.after ? "No staff actions match these filters." : "No staff actions yet."}
        </p>
      ) : (
        <AuditTable entries={page.entries} wholeText={page.wholeText} search={search} timeZone={timeZone} />
      )}
      <AuditPages search={search} newer={page.newer} older={page.older} onFirstPage={!query.before && !query.after} />
    </>
  );
}

// Under the md breakpoint each row is a block of labelled lines (the label is the cell's
// `data-label`, drawn by CSS so it is not part of the cell's text); from md up, a table.
const cell =
  "block py-0.5 align-top max-md:before:mr-1 max-md:before:font-semibold max-md:before:content-[attr(data-label)] md:table-cell md:py-2 md:pr-4";

function AuditTable({
  entries,
  wholeText,
  search,
  timeZone,
}: {
  entries: AuditRow[];
  wholeText: { id: string; text: string } | null;
  search: string;
  timeZone: string;
}) {
  return (
    <table className="mt-6 block w-full text-left text-sm md:table">
      <caption className="sr-only">Staff actions, newest first</caption>
      <thead className="sr-only md:not-sr-only md:table-header-group">
        <tr className="border-b border-slate-200">
          <th className="py-2 pr-4">When</th>
          <th className="py-2 pr-4">Who</th>
          <th className="py-2 pr-4">What</th>
          <th className="py-2 pr-4">To whom</th>
          <th className="py-2 pr-4">Count</th>
          <th className="py-2">Text sent</th>
        </tr>
      </thead>
      <tbody className="block md:table-row-group">
        {entries.map((entry) => {
          const whole = wholeText?.id === entry.id ? wholeText.text : null;
          return (
            <tr
              key={entry.id}
              id={`entry-${entry.id}`}
              className="block border-b border-slate-200 py-2 md:table-row md:py-0"
            >
              <td className={`${cell} whitespace-nowrap`} data-label="When:">
                {formatDateTime(entry.createdAt, timeZone)}
              </td>
              <td className={`${cell} [overflow-wrap:anywhere]`} data-label="Who:">
                {entry.actorName}
              </td>
              <td className={cell} data-label="What:">
                {auditActionNames[entry.action]}
                {entry.detail ? ` (${entry.detail})` : ""}
              </td>
              <td className={`${cell} [overflow-wrap:anywhere]`} data-label="To whom:">
                {entry.learnerId ? (
                  <Link to={`/staff/learners/${encodeURIComponent(entry.learnerId)}`} className={linkClass}>
                    {entry.target}
                  </Link>
                ) : (
                  entry.target
                )}
              </td>
              <td className={cell} data-label="Count:">
                {entry.count}
              </td>
              <td className={`${cell} md:max-w-md`} data-label="Text sent:">
                {entry.sentText !== null && (
                  <SentText
                    entryId={entry.id}
                    start={entry.sentText}
                    cut={entry.sentTextCut}
                    whole={whole}
                    search={search}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The text a row sent, as text (never as HTML): its start, or the whole of it when asked. */
function SentText({
  entryId,
  start,
  cut,
  whole,
  search,
}: {
  entryId: string;
  start: string;
  cut: boolean;
  whole: string | null;
  search: string;
}) {
  return (
    <>
      <span className="block whitespace-pre-line text-slate-900 [overflow-wrap:anywhere]" data-testid="sent-text">
        {whole ?? (cut ? `${start}…` : start)}
      </span>
      {cut && (
        <Link
          to={withParams(search, { text: whole === null ? entryId : "" })}
          preventScrollReset
          className={`${linkClass} mt-1 inline-block`}
        >
          {whole === null ? "Show the whole text" : "Show less"}
        </Link>
      )}
    </>
  );
}

/** Newest, Newer and Older: the log read in pages from a place in it (the address keeps it). */
function AuditPages({
  search,
  newer,
  older,
  onFirstPage,
}: {
  search: string;
  newer: string | null;
  older: string | null;
  onFirstPage: boolean;
}) {
  if (onFirstPage && !older) return null;
  return (
    <nav aria-label="Pages of the audit log" className="mt-6 flex flex-wrap gap-4">
      {!onFirstPage && (
        <Link to={withParams(search, { before: "", after: "", text: "" })} className={linkClass}>
          Newest
        </Link>
      )}
      {newer && (
        <Link to={withParams(search, { before: "", after: newer, text: "" })} className={linkClass}>
          Newer
        </Link>
      )}
      {older && (
        <Link to={withParams(search, { before: older, after: "", text: "" })} className={linkClass}>
          Older
        </Link>
      )}
    </nav>
  );
}
