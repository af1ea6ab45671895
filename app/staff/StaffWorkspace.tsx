import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { WorkspaceCertificates } from "~/documents/WorkspaceCertificates";
import { kindLabels, type MessageKind } from "~/messages/kinds";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { Field } from "~/ui/form";
import { useAction, type ActionAnswer } from "~/ui/use-action";
import { ComposePanel, PreviewBox, usePreview, type Audience, type Texts } from "./ComposePanel";
import { LearnerCardView } from "./LearnerCardView";
import type { loadStaffWorkspace } from "./staff-page.server";
import {
  audienceWords,
  learnerCountCap,
  maxSelected,
  namesInWords,
  pageSizes,
  staffMessages,
  type LearnerSummary,
} from "./staff-types";

type WorkspaceData = Awaited<ReturnType<typeof loadStaffWorkspace>>;

type Confirm =
  /** `count` is null while a list too long to count on each page is counted for the confirmation. */
  | { type: "bulk"; kind: MessageKind; count: number | null }
  | { type: "ticked"; kind: MessageKind }
  | { type: "clear"; kind: MessageKind; learner: LearnerSummary };

/**
 * The staff workspace ('Admin Dashboard'): search, course filter and page live in the URL, so
 * reload, Back and shared links all show the same list. Expanding a card selects its learner
 * for the side panel's Send buttons. Every action is decided by the server.
 */
export function StaffWorkspace({ data }: { data: WorkspaceData }) {
  const { results, courses, filter, timeZone, user } = data;
  const isAdmin = user.level === "admin";
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const ids = useId();
  const [searchText, setSearchText] = useState(filter.q);
  const [texts, setTexts] = useState<Texts>({ notice: "", task: "", certificate: "" });
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [confirmError, setConfirmError] = useState("");
  const action = useAction<ActionAnswer & { count?: number; gone?: string[] }>();
  const preview = usePreview();
  /** Learners ticked with the checkboxes, by id, with their names: kept across pages and searches. */
  const [ticked, setTicked] = useState<ReadonlyMap<string, string>>(new Map());
  const tick = (learners: LearnerSummary[], on: boolean) => {
    const next = new Map(ticked);
    for (const learner of learners) {
      if (on) next.set(learner.id, learner.username);
      else next.delete(learner.id);
    }
    if (next.size > maxSelected) return toast.error(staffMessages.tooManySelected);
    setTicked(next);
  };
  /** Composing, on a phone: the text areas open as a sheet over the list. */
  const [sheetOpen, setSheetOpen] = useState(false);
  const listTop = useRef<HTMLHeadingElement>(null);

  /** A new search, course or page is a new entry in the history (Back returns to the last). */
  // The URL being navigated to: a search typed a moment ago and a course chosen while its
  // page loads must both end up in it (the location only changes once a page has loaded).
  const intended = useRef(params);
  useEffect(() => {
    intended.current = params;
  }, [params]);
  const go = (change: { q?: string; course?: string; page?: number; size?: number }) => {
    const next = new URLSearchParams(intended.current);
    const set = (name: string, value: string) => (value ? next.set(name, value) : next.delete(name));
    if (change.q !== undefined) {
      set("q", change.q.trim());
      setRequestedQuery(change.q.trim());
    }
    if (change.course !== undefined) set("course", change.course);
    if (change.size !== undefined) set("size", change.size === pageSizes[0] ? "" : String(change.size));
    set("page", change.page && change.page > 1 ? String(change.page) : "");
    next.delete("selected");
    intended.current = next;
    setParams(next, { preventScrollReset: true });
  };

  // Back and Forward change the URL: the box then shows the search of the page shown. A page
  // this box asked for arriving late leaves alone what was typed since.
  const [shownQuery, setShownQuery] = useState(filter.q);
  const [requestedQuery, setRequestedQuery] = useState(filter.q);
  if (shownQuery !== filter.q) {
    setShownQuery(filter.q);
    if (filter.q !== requestedQuery) {
      setRequestedQuery(filter.q);
      setSearchText(filter.q);
    }
  }

  // The search runs shortly after typing stops, not on every key.
  useEffect(() => {
    if (searchText.trim() === filter.q) return;
    const timer = setTimeout(() => go({ q: searchText }), 250);
    return () => clearTimeout(timer);
    // Only typing starts a search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchText]);

  // The expanded card's learner is in the URL too, so a reload keeps it open.
  const { selected } = data;
  const select = (id: string | null) => {
    const next = new URLSearchParams(intended.current);
    if (id) next.set("selected", id);
    else next.delete("selected");
    intended.current = next;
    setParams(next, { preventScrollReset: true, replace: true });
    if (id) toast.clear(staffMessages.selectLearner);
  };

  const sendOne = (kind: MessageKind) => {
    if (!selected) return toast.error(staffMessages.selectLearner);
    if (!texts[kind].trim()) return toast.error(staffMessages.empty(kind));
    action.submit(
      { intent: "send", learnerId: selected.id, kind, html: texts[kind] },
      {
        onDone: (answer) => {
          if (!answer.ok) return;
          setTexts((t) => ({ ...t, [kind]: "" }));
          setSheetOpen(false);
        },
      },
    );
  };

  const askTicked = (kind: MessageKind) => {
    if (ticked.size === 0) return toast.error(staffMessages.selectSome);
    if (!texts[kind].trim()) return toast.error(staffMessages.empty(kind));
    toast.clear();
    setConfirmError("");
    setConfirm({ type: "ticked", kind });
    preview.request(kind, texts[kind]);
  };

  const send = (kind: MessageKind, audience: Audience) => {
    if (audience === "open") sendOne(kind);
    else if (audience === "ticked") askTicked(kind);
    else askBulk(kind);
  };

  const counter = useFetcher<WorkspaceData>();
  const askBulk = (kind: MessageKind) => {
    if (!texts[kind].trim()) return toast.error(staffMessages.empty(kind));
    if (results.total === 0) return toast.error("No learners match the search and filter.");
    toast.clear();
    setConfirmError("");
    setConfirm({ type: "bulk", kind, count: results.total });
    preview.request(kind, texts[kind]);
    if (results.total === null) {
      void counter.load(`/staff?${new URLSearchParams({ q: filter.q, course: filter.course, count: "exact" })}`);
    }
  };
  // A bulk confirmation opened on an uncounted list shows the count once the counter has it.
  const counted = counter.state === "idle" ? counter.data : undefined;
  const bulkCount =
    confirm?.type !== "bulk"
      ? null
      : (confirm.count ??
        (counted && counted.filter.q === filter.q && counted.filter.course === filter.course
          ? counted.results.total
          : null));

  /** A send's confirmation shows the text as learners will see it; Yes waits for it. */
  const confirmPreview = confirm && confirm.type !== "clear" ? preview.of(confirm.kind, texts[confirm.kind]) : null;
  const previewReady = confirmPreview !== null && !confirmPreview.loading && confirmPreview.answer.ok;
  const sent = (kind: MessageKind, message: string) => {
    setConfirm(null);
    setSheetOpen(false);
    setTexts((t) => ({ ...t, [kind]: "" }));
    toast.success(message);
  };

  const confirmYes = () => {
    if (!confirm) return;
    if (confirm.type === "ticked") {
      const { kind } = confirm;
      action.submit(
        { intent: "send-selected", learnerIds: [...ticked.keys()].join(","), kind, html: texts[kind] },
        {
          inline: true,
          onDone: (answer) => {
            if (answer.ok) return sent(kind, answer.message);
            if (answer.gone) {
              const next = new Map(ticked);
              for (const id of answer.gone) next.delete(id);
              setTicked(next);
            }
            setConfirmError(answer.message);
          },
        },
      );
    } else if (confirm.type === "bulk") {
      if (bulkCount === null) return;
      action.submit(
        {
          intent: "bulk-send",
          search: filter.q,
          course: filter.course,
          kind: confirm.kind,
          html: texts[confirm.kind],
          expectedCount: String(bulkCount),
        },
        {
          inline: true,
          onDone: (answer) => {
            if (!answer.ok && answer.count !== undefined) {
              setConfirm({ ...confirm, count: answer.count });
              setConfirmError(answer.message);
              return;
            }
            if (!answer.ok) {
              setConfirm(null);
              return toast.error(answer.message);
            }
            sent(confirm.kind, answer.message);
          },
        },
      );
    } else {
      action.submit(
        { intent: "clear", learnerId: confirm.learner.id, kind: confirm.kind },
        { onDone: () => setConfirm(null) },
      );
    }
  };

  // A new page of the list starts at its top.
  const page = results.page;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    listTop.current?.scrollIntoView({ block: "start" });
  }, [page]);

  const composePanel = (
    <ComposePanel
      texts={texts}
      onText={(kind, text) => setTexts((t) => ({ ...t, [kind]: text }))}
      intro={
        <>
          <p>{selected ? `Sending to ${selected.username} (open card).` : "Open a learner's card to send to them."}</p>
          {ticked.size > 0 && (
            <p>
              {ticked.size} {ticked.size === 1 ? "learner" : "learners"} selected with the checkboxes.
            </p>
          )}
        </>
      }
      tickedCount={ticked.size}
      toMatching
      busy={action.busy}
      preview={preview}
      onSend={send}
    />
  );
  const issuePanel = (
    <WorkspaceCertificates
      today={data.today}
      open={selected}
      ticked={ticked}
      filter={{ search: filter.q, course: filter.course }}
      total={results.total}
      onGone={(gone) => {
        const next = new Map(ticked);
        for (const id of gone) next.delete(id);
        setTicked(next);
      }}
    />
  );
  const pageLearners = results.learners;
  const pageTicked = pageLearners.filter((learner) => ticked.has(learner.id)).length;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
        <div className="flex flex-wrap gap-3">
          <Link to="/staff/people" className={secondaryButton}>
            People and roles
          </Link>
          <Link to="/staff/placement" className={secondaryButton}>
            Placement
          </Link>
          <Link to="/staff/outcomes" className={secondaryButton}>
            Placement outcomes
          </Link>
          <Link to="/staff/fees" className={secondaryButton}>
            Fees receivable
          </Link>
          {/* A download, not a page: the browser fetches it itself. */}
          <a href={exportPath(filter)} download className={secondaryButton}>
            Export CSV
          </a>
          {isAdmin && (
            <Link to="/staff/import" className={secondaryButton}>
              Import learners
            </Link>
          )}
          {isAdmin && (
            <Link to="/staff/audit" className={secondaryButton}>
              Audit Log
            </Link>
          )}
          {isAdmin && (
            <Link to="/staff/documents" className={secondaryButton}>
              Document settings
            </Link>
          )}
          {isAdmin && (
            <Link to="/staff/site" className={secondaryButton}>
              Public site
            </Link>
          )}
          {isAdmin && (
            <Link to="/staff/courses" className={secondaryButton}>
              Courses
            </Link>
          )}
          <button type="button" className={secondaryButton} onClick={() => void navigate("/dashboard")}>
            User DashBoard
          </button>
        </div>
      </div>

      <div className="mt-6 grid gap-8 lg:grid-cols-[20rem_1fr]">
        <aside aria-label="Send to learners" className="hidden lg:sticky lg:top-4 lg:block lg:self-start">
          {composePanel}
          {issuePanel}
        </aside>

        <section aria-labelledby={`${ids}-learners`}>
          <h2 id={`${ids}-learners`} ref={listTop} className="sr-only scroll-mt-4">
            Learners
          </h2>
          <form
            role="search"
            className="flex flex-wrap items-end gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              go({ q: searchText });
            }}
          >
            <Field
              className="min-w-56 flex-1"
              id={`${ids}-search`}
              label="Search by name, email or phone"
              type="search"
              name="q"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
            <div>
              <label htmlFor={`${ids}-course`} className="block font-semibold text-slate-900">
                Course
              </label>
              <select
                id={`${ids}-course`}
                name="course"
                className="mt-1 rounded-md border border-slate-400 p-2"
                value={filter.course}
                onChange={(e) => go({ course: e.target.value })}
              >
                <option value="">All Courses</option>
                {courses.map((course) => (
                  <option key={course} value={course}>
                    {course}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${ids}-size`} className="block font-semibold text-slate-900">
                Per page
              </label>
              <select
                id={`${ids}-size`}
                name="size"
                className="mt-1 rounded-md border border-slate-400 p-2"
                value={results.pageSize}
                onChange={(e) => go({ size: Number(e.target.value) })}
              >
                {pageSizes.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </div>
          </form>

          <p className="mt-4 text-sm text-slate-700" aria-live="polite">
            {results.total === null
              ? `More than ${learnerCountCap.toLocaleString("en-IN")} learners`
              : `${results.total} ${results.total === 1 ? "learner" : "learners"}`}
          </p>
          {results.total === 0 && (
            <div className="mt-2 rounded-xl border border-slate-200 bg-white p-4">
              <p className="text-slate-900">{noMatch(filter)}</p>
              {(filter.q || filter.course) && (
                <button
                  type="button"
                  className={`${secondaryButton} mt-3`}
                  onClick={() => {
                    setSearchText("");
                    go({ q: "", course: "" });
                  }}
                >
                  Clear the search
                </button>
              )}
            </div>
          )}
          {pageLearners.length > 0 && (
            <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
              <label className="flex items-center gap-2 font-semibold text-slate-900">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={pageTicked === pageLearners.length}
                  ref={(box) => {
                    if (box) box.indeterminate = pageTicked > 0 && pageTicked < pageLearners.length;
                  }}
                  onChange={(e) => tick(pageLearners, e.target.checked)}
                />
                Select all on this page
              </label>
              {ticked.size > 0 && (
                <>
                  <span className="text-slate-700" aria-live="polite">
                    {ticked.size} selected
                  </span>
                  <button
                    type="button"
                    className="font-semibold text-blue-800 underline"
                    onClick={() => setTicked(new Map())}
                  >
                    Clear selection
                  </button>
                </>
              )}
            </div>
          )}
          <ul className="mt-2 space-y-3">
            {results.learners.map((learner) => (
              <LearnerCardView
                key={learner.id}
                learner={learner}
                ticked={ticked.has(learner.id)}
                onTick={(on) => tick([learner], on)}
                details={learner.id === selected?.id ? selected : null}
                isAdmin={isAdmin}
                timeZone={timeZone}
                offerLetter={learner.id === selected?.id ? (data.offerLetter ?? "") : ""}
                roles={data.roles}
                onToggle={() => select(selected?.id === learner.id ? null : learner.id)}
                onClear={(kind) => {
                  setConfirmError("");
                  setConfirm({ type: "clear", kind, learner });
                }}
              />
            ))}
          </ul>
          {(results.page > 1 || results.hasNext) && (
            <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
              <PageLink page={results.page - 1} disabled={results.page <= 1} go={go}>
                Previous
              </PageLink>
              <span className="text-sm text-slate-700">
                {results.pages === null ? `Page ${results.page}` : `Page ${results.page} of ${results.pages}`}
              </span>
              <PageLink page={results.page + 1} disabled={!results.hasNext} go={go}>
                Next
              </PageLink>
            </nav>
          )}
        </section>
      </div>

      <div
        className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white p-3 shadow-lg lg:hidden"
        // Go to Top sits above this bar.
        data-bottom-bar
      >
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3">
          <p className="min-w-0 text-sm text-slate-700">{composeSummary(selected?.username ?? null, ticked.size)}</p>
          <Dialog.Root open={sheetOpen} onOpenChange={setSheetOpen}>
            <Dialog.Trigger className={primaryButton}>Write</Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
              <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 max-h-[88vh] overflow-y-auto rounded-t-2xl bg-white p-4 pb-8 shadow-2xl">
                <div className="mb-4 flex items-center justify-between gap-3">
                  <Dialog.Title className="text-xl font-bold text-slate-900">Send to learners</Dialog.Title>
                  <Dialog.Close className={secondaryButton}>Close</Dialog.Close>
                </div>
                <Dialog.Description className="sr-only">
                  Write a notice, task or certificate and choose who receives it.
                </Dialog.Description>
                {composePanel}
                {issuePanel}
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        </div>
      </div>

      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirmTitle(confirm)}
        description={
          confirm?.type === "bulk"
            ? bulkCount === null
              ? "Counting the matching learners…"
              : `To ${audienceWords({ search: filter.q, course: filter.course }, bulkCount)}.`
            : confirm?.type === "ticked"
              ? `To ${ticked.size} selected ${ticked.size === 1 ? "learner" : "learners"}: ${namesInWords([...ticked.values()])}.`
              : confirm
                ? `All ${kindLabels[confirm.kind].plural} of ${confirm.learner.username} will be deleted.`
                : ""
        }
        onYes={confirmYes}
        busy={
          action.busy ||
          (confirm?.type === "bulk" && bulkCount === null) ||
          (confirm !== null && confirm.type !== "clear" && !previewReady)
        }
        error={confirmError}
        danger={confirm?.type === "clear"}
      >
        {confirm && confirm.type !== "clear" && (
          <PreviewBox preview={confirmPreview} label={`The ${kindLabels[confirm.kind].singular} to send`} />
        )}
      </ConfirmDialog>
    </>
  );
}

function confirmTitle(confirm: Confirm | null): string {
  if (!confirm) return "";
  const { singular, plural } = kindLabels[confirm.kind];
  if (confirm.type === "bulk") return `Send this ${singular} to all matching learners?`;
  if (confirm.type === "ticked") return `Send this ${singular} to the selected learners?`;
  return `Clear ${plural}?`;
}

/** The phone's compose bar: who a send would reach. */
function composeSummary(openLearner: string | null, tickedCount: number): string {
  if (tickedCount > 0) return `${tickedCount} selected${openLearner ? `; card open: ${openLearner}` : ""}`;
  if (openLearner) return `Card open: ${openLearner}`;
  return "Open a card or tick learners to send.";
}

/** The CSV of the learners this list shows (its search and course; every page). */
function exportPath({ q, course }: { q: string; course: string }): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (course) params.set("course", course);
  const query = params.toString();
  return `/staff/learners.csv${query ? `?${query}` : ""}`;
}

/** What an empty list says, naming what was searched. */
function noMatch({ q, course }: { q: string; course: string }): string {
  const where = course ? ` in ${course}` : "";
  if (q) return `No learners${where} whose name, email or phone contains "${q}".`;
  if (course) return `No learners in ${course}.`;
  return "No learners have signed up yet.";
}

function PageLink({
  page,
  disabled,
  go,
  children,
}: {
  page: number;
  disabled: boolean;
  go: (change: { page: number }) => void;
  children: React.ReactNode;
}) {
  return (
    <button type="button" className={secondaryButton} disabled={disabled} onClick={() => go({ page })}>
      {children}
    </button>
  );
}
