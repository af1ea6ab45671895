import { useState } from "react";
import { WorkspaceCertificates } from "~/documents/WorkspaceCertificates";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { draftKey } from "~/ui/use-draft";
import { LostChange } from "~/ui/LostChange";
import { useAction } from "~/ui/use-action";
import { ComposePanel, PreviewBox, SendResultLine, type AudienceOption } from "./ComposePanel";
import { ComposeSheet } from "./ComposeSheet";
import { LearnerList } from "./LearnerList";
import { LearnerSearchForm } from "./LearnerSearchForm";
import type { loadStaffWorkspace } from "./staff-page.server";
import { useCompose } from "./use-compose";
import { useTickedLearners } from "./use-ticked-learners";
import { useWorkspaceSearch } from "./use-workspace-search";
import { useWorkspaceSends, type SendAnswer } from "./use-workspace-sends";
import { WorkspaceHeading, WorkspaceSideNav } from "./WorkspaceNav";
import { SavedViews } from "./SavedViews";
import { FirstRunChecklist } from "./FirstRunChecklist";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { useWorkspaceKeys } from "./use-workspace-keys";

type WorkspaceData = Awaited<ReturnType<typeof loadStaffWorkspace>>;

/**
 * The staff workspace ('Admin Dashboard'): search, course filter and page live in the URL, so
 * reload, Back and shared links all show the same list. Expanding a card selects its learner
 * for the side panel's Send buttons. Every action is decided by the server.
 */
export function StaffWorkspace({ data }: { data: WorkspaceData }) {
  const { results, courses, filter, selected } = data;
  const search = useWorkspaceSearch(filter.search);
  const selection = useTickedLearners();
  const action = useAction<SendAnswer>();
  const compose = useCompose(action, draftKey(data.user.id, "workspace"));
  /** Composing, on a phone: the text areas open as a sheet over the list. */
  const [sheetOpen, setSheetOpen] = useState(false);
  const [sentFromSheet, setSentFromSheet] = useState(false);
  const openSheet = (open: boolean) => {
    setSheetOpen(open);
    if (open) setSentFromSheet(false);
  };
  const names = { batch: data.batches.find((batch) => batch.id === filter.batch)?.name };
  const sends = useWorkspaceSends({
    action,
    compose,
    selection,
    filter,
    names,
    total: results.total,
    openLearnerId: selected?.id,
    onSent: () => {
      setSentFromSheet(sheetOpen);
      setSheetOpen(false);
    },
  });
  const { ticked } = selection;
  const isAdmin = data.user.level === "admin";
  const audiences = workspaceAudiences(selected?.username, ticked.size, results.total);
  const [helpOpen, setHelpOpen] = useState(false);
  useWorkspaceKeys({
    openSheet: () => openSheet(true),
    onHelp: () => setHelpOpen(true),
    closeLearner: selected ? () => search.select(null) : null,
  });

  const composer = (
    <>
      <ComposePanel
        texts={compose.texts}
        onText={compose.setText}
        audiences={audiences}
        noAudience="No one yet: open a learner, tick learners or choose all matching."
        busy={action.busy}
        preview={compose.preview}
        onSend={sends.send}
      />
      <SendResultLine result={compose.result} className="mt-3" />
      <LostChange action={action} className="mt-3" />
      <WorkspaceCertificates
        today={data.today}
        open={selected}
        ticked={ticked}
        filter={filter}
        names={names}
        total={results.total}
        onGone={selection.drop}
        signatorySet={data.signatorySet}
      />
    </>
  );
  const { dialog } = sends;

  return (
    <>
      <WorkspaceHeading isAdmin={isAdmin} />
      {data.firstRun && <FirstRunChecklist items={data.firstRun} />}
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[20rem_minmax(0,1fr)] xl:grid-cols-[11rem_20rem_minmax(0,1fr)]">
        <WorkspaceSideNav isAdmin={isAdmin} />
        <aside aria-label="Send to learners" data-composer className="hidden lg:sticky lg:top-4 lg:block lg:self-start">
          {composer}
        </aside>
        <LearnerList data={data} search={search} selection={selection} onClear={sends.askClear}>
          <LearnerSearchForm
            search={search}
            filter={filter}
            courses={courses}
            batches={data.batches}
            trains={data.myBatchIds.length > 0}
            pageSize={results.pageSize}
            sort={data.sort}
          />
          <div className="mt-3 flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <SavedViews views={data.savedViews} />
            </div>
            <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
          </div>
        </LearnerList>
      </div>
      <ComposeSheet
        open={sheetOpen}
        onOpenChange={openSheet}
        openLearner={selected?.username ?? null}
        tickedCount={ticked.size}
        result={compose.result}
        closedBySend={sentFromSheet}
      >
        {composer}
      </ComposeSheet>
      <ConfirmDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && dialog?.close()}
        title={dialog?.title ?? ""}
        description={dialog?.description ?? ""}
        onYes={() => dialog?.yes()}
        busy={dialog?.busy ?? false}
        error={dialog?.error ?? ""}
        danger={dialog?.danger ?? false}
        labels={dialog?.labels}
        action={action}
      >
        {dialog?.preview && (
          <PreviewBox preview={dialog.preview.shown} label={dialog.preview.label} action={compose.preview.action} />
        )}
      </ConfirmDialog>
    </>
  );
}

/** Who the workspace's composer may send to: the open card's learner, the ticked ones, all matching. */
function workspaceAudiences(openName: string | undefined, tickedCount: number, total: number | null): AudienceOption[] {
  const audiences: AudienceOption[] = [];
  if (openName) audiences.push({ audience: "open", words: openName });
  if (tickedCount > 0) audiences.push({ audience: "ticked", words: `${tickedCount} selected` });
  if (total !== 0) {
    audiences.push({
      audience: "matching",
      words: total === null ? "all matching" : `${total.toLocaleString("en-IN")} matching`,
    });
  }
  return audiences;
}
