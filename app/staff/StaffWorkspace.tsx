import { useState } from "react";
import { WorkspaceCertificates } from "~/documents/WorkspaceCertificates";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { draftKey } from "~/ui/use-draft";
import { LostChange } from "~/ui/LostChange";
import { useAction } from "~/ui/use-action";
import { ComposePanel, PreviewBox } from "./ComposePanel";
import { ComposeSheet } from "./ComposeSheet";
import { LearnerList } from "./LearnerList";
import { LearnerSearchForm } from "./LearnerSearchForm";
import type { loadStaffWorkspace } from "./staff-page.server";
import { useCompose } from "./use-compose";
import { useTickedLearners } from "./use-ticked-learners";
import { useWorkspaceSearch } from "./use-workspace-search";
import { useWorkspaceSends, type SendAnswer } from "./use-workspace-sends";
import { WorkspaceNav } from "./WorkspaceNav";
import { SavedViews } from "./SavedViews";
import { BulkActions } from "./BulkActions";

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
  const learnerFilter = filter;
  const names = { batch: data.batches.find((batch) => batch.id === filter.batch)?.name };
  const sends = useWorkspaceSends({
    action,
    compose,
    selection,
    filter: learnerFilter,
    names,
    total: results.total,
    openLearnerId: selected?.id,
    onSent: () => setSheetOpen(false),
  });
  const { ticked } = selection;

  const composer = (
    <>
      <ComposePanel
        texts={compose.texts}
        onText={compose.setText}
        intro={
          <>
            <p>
              {selected ? `Sending to ${selected.username} (open card).` : "Open a learner's card to send to them."}
            </p>
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
        preview={compose.preview}
        onSend={sends.send}
      />
      <LostChange action={action} className="mt-3" />
      <WorkspaceCertificates
        today={data.today}
        open={selected}
        ticked={ticked}
        filter={learnerFilter}
        names={names}
        total={results.total}
        onGone={selection.drop}
        signatorySet={data.signatorySet}
      />
    </>
  );
  const dialog = sends.dialog;

  return (
    <>
      <WorkspaceNav isAdmin={data.user.level === "admin"} filterQuery={data.filterQuery} />
      <div className="mt-6 grid gap-8 lg:grid-cols-[20rem_1fr]">
        <aside aria-label="Send to learners" className="hidden lg:sticky lg:top-4 lg:block lg:self-start">
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
          <div className="mt-3">
            <SavedViews views={data.savedViews} />
          </div>
          <BulkActions
            ticked={ticked}
            filter={filter}
            total={results.total}
            names={names}
            batches={data.batches}
            onGone={selection.drop}
          />
        </LearnerList>
      </div>
      <ComposeSheet
        open={sheetOpen}
        onOpenChange={setSheetOpen}
        openLearner={selected?.username ?? null}
        tickedCount={ticked.size}
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
