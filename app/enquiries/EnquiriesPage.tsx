import { useId, useState } from "react";
import { Link } from "react-router";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { ErrorLine, controlClass, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";
import type { EnquiryDetail } from "./enquiries.server";
import {
  callbackTimeLabels,
  enquiryLimits,
  enquiryNoteSchema,
  enquiryStatusLabels,
  enquiryStatuses,
  type EnquiryStatus,
} from "./enquiry-fields";
import type { loadEnquiryInbox } from "./inbox-page.server";
import { formatDateTime } from "~/core/dates";

type InboxData = Awaited<ReturnType<typeof loadEnquiryInbox>>;

const statusBadge: Record<EnquiryStatus, string> = {
  new: "bg-blue-800 text-white",
  contacted: "bg-amber-100 text-amber-950",
  enrolled: "bg-green-100 text-green-900",
  closed: "bg-slate-200 text-slate-800",
};

function StatusBadge({ status }: { status: EnquiryStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusBadge[status]}`}>
      {enquiryStatusLabels[status]}
    </span>
  );
}

/** The inbox's address with these changes (status, page, open enquiry), the rest kept. */
function inboxHref(
  data: InboxData,
  change: { status?: EnquiryStatus | null; page?: number; selected?: string | null },
) {
  const params = new URLSearchParams();
  const status = change.status === undefined ? data.status : change.status;
  const page = change.page ?? (change.status === undefined ? data.page : 1);
  const selected = change.selected === undefined ? data.selected?.id : change.selected;
  if (status) params.set("status", status);
  if (page > 1) params.set("page", String(page));
  if (selected) params.set("selected", selected);
  const query = params.toString();
  return `/staff/enquiries${query ? `?${query}` : ""}`;
}

/** The staff inbox of enquiries from the public site: newest first, by status, one open at a time. */
export function EnquiriesPage({ data }: { data: InboxData }) {
  const { enquiries, more, page, status, selected, timeZone } = data;
  return (
    <>
      <StaffSubpageHeading title="Enquiries" />
      <nav aria-label="Enquiries by status" className="mt-6 flex flex-wrap gap-2">
        {([null, ...enquiryStatuses] as const).map((choice) => (
          <Link
            key={choice ?? "all"}
            to={inboxHref(data, { status: choice, selected: null })}
            aria-current={choice === status ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 font-semibold ${choice === status ? "bg-blue-800 text-white" : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`}
          >
            {choice ? enquiryStatusLabels[choice] : "All"}
          </Link>
        ))}
      </nav>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div>
          {enquiries.length === 0 ? (
            <p className="rounded-xl border border-slate-200 bg-white p-4 text-slate-900">
              {status ? `No enquiries are ${enquiryStatusLabels[status].toLowerCase()}.` : "No enquiries yet."}
            </p>
          ) : (
            <ul className="space-y-2" aria-label="Enquiries, newest first">
              {enquiries.map((enquiry) => (
                <li key={enquiry.id} data-testid="enquiry">
                  <Link
                    to={inboxHref(data, { selected: enquiry.id })}
                    aria-current={selected?.id === enquiry.id ? "true" : undefined}
                    className={`block rounded-xl border bg-white p-3 shadow-sm hover:border-blue-700 ${selected?.id === enquiry.id ? "border-blue-800 ring-2 ring-blue-800" : "border-slate-200"}`}
                  >
                    <span className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-semibold text-slate-900">{enquiry.name}</span>
                      <StatusBadge status={enquiry.status} />
                    </span>
                    <span className="mt-1 block text-sm text-slate-700">
                      {enquiry.course} · {formatDateTime(enquiry.createdAt, timeZone)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {(page > 1 || more) && (
            <nav aria-label="Pages" className="mt-4 flex gap-3">
              {page > 1 && (
                <Link to={inboxHref(data, { page: page - 1, selected: null })} className={secondaryButton}>
                  Newer
                </Link>
              )}
              {more && (
                <Link to={inboxHref(data, { page: page + 1, selected: null })} className={secondaryButton}>
                  Older
                </Link>
              )}
            </nav>
          )}
        </div>
        {selected ? (
          <EnquiryCard key={selected.id} enquiry={selected} timeZone={timeZone} />
        ) : (
          <p className="text-slate-700">
            Choose an enquiry to see it whole, change its status, add notes or invite them to sign up.
          </p>
        )}
      </div>
    </>
  );
}

const historyWords = (event: EnquiryDetail["history"][number]) =>
  event.kind === "status" && event.status
    ? `marked it ${enquiryStatusLabels[event.status]}`
    : event.kind === "invite"
      ? "sent an invitation to sign up"
      : "added a note";

/** The note form: the note stays typed until it is saved, and a refusal shows under it. */
function EnquiryNoteForm({ enquiryId, idPrefix }: { enquiryId: string; idPrefix: string }) {
  const noteAction = useAction();
  const toast = useToast();
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState("");
  return (
    <form
      className="mt-6"
      onSubmit={(event) => {
        event.preventDefault();
        setNoteError("");
        noteAction.submit(
          { intent: "enquiry-note", enquiryId, note },
          {
            schema: enquiryNoteSchema,
            inline: true,
            onDone: (answer) => {
              if (answer.ok) {
                setNote("");
                toast.success(answer.message);
              } else if (answer.field === "note") setNoteError(answer.message);
              else toast.error(answer.message);
            },
          },
        );
      }}
    >
      <label htmlFor={`${idPrefix}-note`} className={labelClass}>
        Add a note
      </label>
      <textarea
        id={`${idPrefix}-note`}
        value={note}
        maxLength={enquiryLimits.note}
        onChange={(event) => setNote(event.target.value)}
        rows={3}
        className={controlClass}
        aria-invalid={noteError ? true : undefined}
        aria-describedby={noteError ? `${idPrefix}-note-error` : undefined}
      />
      <ErrorLine id={`${idPrefix}-note-error`} message={noteError} />
      <button type="submit" className={`${primaryButton} mt-1`} disabled={noteAction.busy}>
        Add note
      </button>
      <LostChange action={noteAction} className="mt-2" />
    </form>
  );
}

/** Who changed the enquiry, and how. */
function EnquiryHistory({ history, timeZone }: { history: EnquiryDetail["history"]; timeZone: string }) {
  return history.length === 0 ? (
    <p className="mt-2 text-slate-700">Nobody has changed it yet.</p>
  ) : (
    <ol className="mt-2 space-y-3" aria-label="Who changed what">
      {history.map((event) => (
        <li key={event.id} className="border-l-4 border-slate-300 pl-3" data-testid="enquiry-history">
          <p className="text-sm text-slate-700">
            <span className="font-semibold text-slate-900">{event.actorName}</span> {historyWords(event)},{" "}
            {formatDateTime(event.createdAt, timeZone)}
          </p>
          {event.note && (
            <p className="mt-1 whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">{event.note}</p>
          )}
        </li>
      ))}
    </ol>
  );
}

function EnquiryCard({ enquiry, timeZone }: { enquiry: EnquiryDetail; timeZone: string }) {
  const ids = useId();
  const statusAction = useAction();
  const inviteAction = useAction();
  const details: [string, React.ReactNode][] = [
    [
      "Phone",
      <a key="phone" href={`tel:${enquiry.phone}`} className="font-medium text-blue-800 underline">
        {enquiry.phone}
      </a>,
    ],
    [
      "Email",
      enquiry.email ? (
        <a key="email" href={`mailto:${enquiry.email}`} className="font-medium break-all text-blue-800 underline">
          {enquiry.email}
        </a>
      ) : (
        "Not given"
      ),
    ],
    ["Course", enquiry.course],
    ["Call back", callbackTimeLabels[enquiry.callbackTime]],
    ["Received", formatDateTime(enquiry.createdAt, timeZone)],
  ];
  return (
    <section aria-labelledby={`${ids}-name`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${ids}-name`} className="text-2xl font-bold text-slate-900">
          {enquiry.name}
        </h2>
        <StatusBadge status={enquiry.status} />
      </div>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        {details.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm font-semibold text-slate-600">{label}</dt>
            <dd className="mt-0.5 text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-5 text-sm font-semibold text-slate-600">Message</h3>
      <p className="mt-1 whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">{enquiry.message}</p>

      <form
        className="mt-6 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const status = new FormData(event.currentTarget).get("status");
          statusAction.submit({ intent: "enquiry-status", enquiryId: enquiry.id, status: String(status) });
        }}
      >
        <div>
          <label htmlFor={`${ids}-status`} className={labelClass}>
            Status
          </label>
          <select id={`${ids}-status`} name="status" defaultValue={enquiry.status} className={controlClass}>
            {enquiryStatuses.map((status) => (
              <option key={status} value={status}>
                {enquiryStatusLabels[status]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButton} disabled={statusAction.busy}>
          Save status
        </button>
        {enquiry.email && (
          <button
            type="button"
            className={secondaryButton}
            disabled={inviteAction.busy}
            onClick={() => inviteAction.submit({ intent: "enquiry-invite", enquiryId: enquiry.id })}
          >
            Invite to sign up
          </button>
        )}
        <LostChange action={statusAction} className="basis-full" />
        <LostChange action={inviteAction} className="basis-full" />
      </form>

      <EnquiryNoteForm enquiryId={enquiry.id} idPrefix={ids} />

      <h3 className="mt-6 text-lg font-semibold text-slate-900">History</h3>
      <EnquiryHistory history={enquiry.history} timeZone={timeZone} />
    </section>
  );
}
