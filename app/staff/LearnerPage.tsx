import { Link } from "react-router";
import { useId, useState } from "react";
import { StaffDocumentList } from "~/documents/DocumentCards";
import { issueCertificateSchema, issueOfferLetterSchema } from "~/documents/document-fields";
import { emptyCertificate } from "~/documents/document-inputs";
import { CertificateForm, OfferLetterForm, SignatoryNeeded } from "~/documents/IssueForms";
import { kindLabels, type MessageKind } from "~/messages/kinds";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { messageBody } from "~/ui/styles";
import { draftKey } from "~/ui/use-draft";
import { LostChange } from "~/ui/LostChange";
import { useAction } from "~/ui/use-action";
import { ComposePanel, SendResultLine } from "./ComposePanel";
import { AdminTools, LearnerDetails } from "./LearnerCardView";
import type { loadLearnerPage } from "./staff-page.server";
import type { SentItem, StoredOfferLetter } from "~/messages/messages.server";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { useCompose } from "./use-compose";
import { formatDateTime } from "~/core/dates";

type LearnerPageData = Awaited<ReturnType<typeof loadLearnerPage>>;

const smallDangerButton =
  "rounded-md border border-red-700 bg-white px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50";

/** One learner: everything staff may see and do for them (the expanded card, on a page of its own). */
export function LearnerPage({ data }: { data: LearnerPageData }) {
  const { learner, timeZone, user, offerLetter, roles } = data;
  const isAdmin = user.level === "admin";
  const action = useAction();
  const compose = useCompose(action, draftKey(user.id, `learner:${learner.id}`));
  const [clearing, setClearing] = useState<MessageKind | null>(null);
  const [deleting, setDeleting] = useState<SentItem | null>(null);

  return (
    <>
      <StaffSubpageHeading title={learner.username} />
      <p className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        <Link
          to={`/staff/placement/${encodeURIComponent(learner.id)}`}
          className="font-semibold text-blue-800 underline"
        >
          Placement, offers and fees
        </Link>
        {/* The audit log is admins' only (the server refuses others all the same). */}
        {isAdmin && (
          <Link
            to={`/staff/audit?learner=${encodeURIComponent(learner.id)}`}
            className="font-semibold text-blue-800 underline"
          >
            Staff actions on this learner
          </Link>
        )}
      </p>
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_20rem]">
        <section aria-label="Details" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <LearnerDetails learner={learner} isAdmin={isAdmin} timeZone={timeZone} onClear={setClearing} />
          {isAdmin && (
            <AdminTools key={learner.id} learner={learner} offerLetter={offerLetter?.html ?? ""} roles={roles} />
          )}
        </section>
        <aside aria-label={`Send to ${learner.username}`}>
          <ComposePanel
            texts={compose.texts}
            onText={compose.setText}
            audiences={[{ audience: "open", words: learner.username }]}
            busy={action.busy}
            preview={compose.preview}
            onSend={(kind) => compose.sendTo(learner.id, kind)}
          />
          <SendResultLine result={compose.result} className="mt-3" />
          <LostChange action={action} className="mt-3" />
        </aside>
      </div>
      <IssueDocuments learnerId={learner.id} today={data.today} isAdmin={isAdmin} signatorySet={data.signatorySet} />
      <StaffDocumentList
        documents={data.documents}
        today={data.today}
        timeZone={timeZone}
        learnerId={learner.id}
        learnerName={learner.username}
        isAdmin={isAdmin}
      />
      <SentList
        sent={data.sent}
        offerLetter={offerLetter}
        learnerName={learner.username}
        timeZone={timeZone}
        onDelete={isAdmin ? setDeleting : undefined}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? `Delete this ${kindLabels[deleting.kind].singular}?` : ""}
        description={
          deleting
            ? `It is removed from ${learner.username}'s ${kindLabels[deleting.kind].plural}, sent ${formatDateTime(deleting.sentAt, timeZone)}.`
            : ""
        }
        onYes={() =>
          deleting &&
          action.submit(
            { intent: "delete-message", learnerId: learner.id, messageId: deleting.id },
            { onDone: () => setDeleting(null) },
          )
        }
        busy={action.busy}
        danger
        action={action}
      />
      <ConfirmDialog
        open={clearing !== null}
        onOpenChange={(open) => !open && setClearing(null)}
        title={clearing ? `Clear ${kindLabels[clearing].plural}?` : ""}
        description={clearing ? `All ${kindLabels[clearing].plural} of ${learner.username} will be deleted.` : ""}
        onYes={() =>
          clearing &&
          action.submit({ intent: "clear", learnerId: learner.id, kind: clearing }, { onDone: () => setClearing(null) })
        }
        busy={action.busy}
        danger
        action={action}
      />
    </>
  );
}

/** The certificate and (admins) offer letter forms, issuing to this learner. */
function IssueDocuments({
  learnerId,
  today,
  isAdmin,
  signatorySet,
}: {
  learnerId: string;
  today: string;
  isAdmin: boolean;
  signatorySet: boolean;
}) {
  const action = useAction();
  const [certificate, setCertificate] = useState(emptyCertificate(today));
  return (
    <section aria-label="Issue documents" className="mt-8 grid gap-8 lg:grid-cols-2">
      {!signatorySet && <SignatoryNeeded />}
      <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <CertificateForm
          draft={certificate}
          onDraft={setCertificate}
          busy={action.busy}
          actions={[
            {
              label: "Issue certificate",
              primary: true,
              onClick: () =>
                action.submit(
                  { intent: "issue-certificate", learnerIds: learnerId, ...certificate },
                  {
                    schema: issueCertificateSchema,
                    onDone: (answer) => answer.ok && setCertificate(emptyCertificate(today)),
                  },
                ),
            },
          ]}
        />
      </div>
      {isAdmin && (
        <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <OfferLetterForm
            today={today}
            busy={action.busy}
            onIssue={(fields, done) =>
              action.submit(
                { intent: "issue-offer-letter", learnerId: learnerId, ...fields },
                { schema: issueOfferLetterSchema, onDone: (answer) => answer.ok && done() },
              )
            }
          />
        </div>
      )}
      <LostChange action={action} className="lg:col-span-2" />
    </section>
  );
}

/** Whether the learner has read it yet, in words. */
function readState(readAt: string | null, timeZone: string): string {
  return readAt ? `. Read ${formatDateTime(readAt, timeZone)}.` : ". Not read yet.";
}

/**
 * Everything sent to the learner, newest first, as they see it, each with whether they read it;
 * admins also see the offer letter first, and delete single items.
 */
function SentList({
  sent,
  offerLetter,
  learnerName,
  timeZone,
  onDelete,
}: {
  sent: { items: SentItem[]; more: boolean };
  /** The current offer letter; admins only (null: none, or not an admin). */
  offerLetter: StoredOfferLetter | null;
  learnerName: string;
  timeZone: string;
  onDelete?: (item: SentItem) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        What was sent
      </h2>
      {offerLetter && (
        <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="sent-offer-letter">
          <p className="text-sm text-slate-700">
            <span className="font-semibold text-slate-900">Offer letter</span> from{" "}
            {offerLetter.sentBy ?? "a former staff member"},{" "}
            <time dateTime={offerLetter.updatedAt}>{formatDateTime(offerLetter.updatedAt, timeZone)}</time>
            {readState(offerLetter.readAt, timeZone)}
          </p>
        </div>
      )}
      {sent.items.length === 0 ? (
        <p className="mt-4 text-slate-700">Nothing has been sent to {learnerName} yet.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {sent.items.map((item) => (
            <li
              key={item.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="sent-item"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="text-sm text-slate-700">
                  <span className="font-semibold text-slate-900">{kindLabels[item.kind].title}</span> from{" "}
                  {item.sentBy ?? "a former staff member"},{" "}
                  <time dateTime={item.sentAt}>{formatDateTime(item.sentAt, timeZone)}</time>
                  {readState(item.readAt, timeZone)}
                </p>
                {onDelete && (
                  <button type="button" className={smallDangerButton} onClick={() => onDelete(item)}>
                    Delete<span className="sr-only"> this {kindLabels[item.kind].singular}</span>
                  </button>
                )}
              </div>
              <div className={`mt-2 ${messageBody}`} dangerouslySetInnerHTML={{ __html: item.html }} />
            </li>
          ))}
        </ol>
      )}
      {sent.more && <p className="mt-3 text-sm text-slate-700">Older items are not shown.</p>}
    </section>
  );
}
