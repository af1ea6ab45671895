import { refuse, requireUser } from "~/accounts/permissions.server";
import type { SessionUser } from "~/core/people";
import { answerOfferSchema, documentMessages } from "~/documents/document-fields";
import { answerOffer, listDocuments, type DocumentView } from "~/documents/documents.server";
import type { LearnerState } from "~/learners/learner-state";
import { profileMessages } from "~/learners/profile.server";
import { addTaskLink, deleteTaskLink, listTaskLinks } from "~/learners/task-links.server";
import { maxMessagePages } from "~/messages/kinds";
import { getOfferLetter, listMessages, markShownRead, unreadCounts } from "~/messages/messages.server";
import { getServices, type Services } from "~/platform/services.server";
import { readOwnChange } from "./own-change.server";
import { hasControlCharacters } from "~/core/text";
import { deleteProfilePhoto, profilePhotoUrl } from "~/uploads/photos.server";
import { deleteResume, getResume } from "~/uploads/resumes.server";
import { markReadSchema, popupFor } from "./popups";
import { dashboardPlacement } from "~/placement/learner-placement.server";
import { todayIn, dayNumber } from "~/core/dates";
import { learnerAssignmentAction, type LearnerAssignmentIntent } from "~/assignments/learner-actions.server";
import { markFeedbackShown } from "~/assignments/submissions.server";
import { learnerAssignments, type LearnerAssignmentView } from "~/assignments/learner-view.server";
import { learnerHome } from "./learner-home.server";

/** Everything the dashboard shows, for one learner. */
export async function learnerState(
  { database, config }: Pick<Services, "database" | "config">,
  user: SessionUser,
  now = new Date(),
): Promise<LearnerState> {
  const db = database.db;
  const [photoUrl, unread, resume, taskLinks] = await Promise.all([
    profilePhotoUrl(db, user.id),
    unreadCounts(db, user.id),
    getResume(db, user.id),
    listTaskLinks(db, user.id),
  ]);
  return {
    username: user.username,
    day: dayNumber(new Date(user.createdAt), now, config.instituteTimeZone),
    photoUrl,
    unread,
    resume,
    taskLinks,
    timeZone: config.instituteTimeZone,
    resumeMaxMb: Math.round((config.resumeMaxBytes / 1024 / 1024) * 10) / 10,
    // Read with the session: the greeting's course costs no query.
    course: user.profile.course,
  };
}

export interface PopupContent {
  /**
   * Newest first. `id` is what marking it read names (the offer letter's is its date, so a
   * letter replaced since it was shown stays unread); `sentBy` is the sender's name, or null
   * for one whose account is gone.
   */
  items: { id: string; html: string; date: string; read: boolean; sentBy: string | null }[];
  /** Older items exist beyond these ("Show older"). */
  more: boolean;
  pages: number;
  /** The learner's certificates or offer letters as PDFs (those two popups only), newest first. */
  documents: DocumentView[];
  /** Today in the institute's time zone ('YYYY-MM-DD'): what a document's state is judged by. */
  today: string;
  /** The site's address, for verify links copied or shared. */
  appUrl: string;
  /** The learner's assignments (the Tasks popup only), due soonest first. */
  assignments?: LearnerAssignmentView[];
  /** The largest file handed in for an assignment, in MB. */
  assignmentMaxMb: number;
}

/** The open popup's items (`?show=`), the newest `?pages=` pages of them. */
async function popupContent(services: Services, user: SessionUser, url: URL): Promise<PopupContent | null> {
  const popup = popupFor(url.searchParams.get("show"));
  if (!popup) return null;
  const pages = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("pages") ?? "1", 10) || 1), maxMessagePages);
  const { db } = services.database;
  // Only the certificate and offer letter popups read documents: one query, and only while open.
  const documentKind = popup.id === "certificate" ? "certificate" : popup.id === "offer" ? "offer-letter" : null;
  const shared = {
    today: todayIn(services.config.instituteTimeZone),
    appUrl: services.config.appUrl,
    assignmentMaxMb: Math.round((services.config.assignmentMaxBytes / 1024 / 1024) * 10) / 10,
  };
  if (popup.id === "offer") {
    const [letter, documents] = await Promise.all([
      getOfferLetter(db, user.id),
      listDocuments(db, user.id, "offer-letter"),
    ]);
    return {
      ...shared,
      documents,
      items: letter
        ? [
            {
              id: letter.updatedAt,
              html: letter.html,
              date: letter.updatedAt,
              read: letter.readAt !== null,
              sentBy: letter.sentBy,
            },
          ]
        : [],
      more: false,
      pages: 1,
    };
  }
  const [page, documents, assignments] = await Promise.all([
    listMessages(db, user.id, popup.id, pages),
    documentKind ? listDocuments(db, user.id, documentKind) : [],
    popup.id === "task" ? learnerAssignments(db, user.id) : undefined,
  ]);
  return {
    ...shared,
    documents,
    assignments,
    items: page.messages.map((m) => ({ id: m.id, html: m.html, date: m.sentAt, read: m.read, sentBy: m.sentBy })),
    more: page.more,
    pages,
  };
}

/** The loader of / (signed in) and /dashboard: the learner's dashboard and its open popup. */
export async function loadDashboard(request: Request, signedIn?: SessionUser) {
  const user = signedIn ?? (await requireUser(request));
  const services = await getServices();
  const today = todayIn(services.config.instituteTimeZone);
  const [learner, popup, placement, home] = await Promise.all([
    learnerState(services, user),
    popupContent(services, user, new URL(request.url)),
    dashboardPlacement(services.database.db, user.id),
    learnerHome(services.database.db, user.id, today),
  ]);
  // An offer letter waiting for the learner's answer is counted on its badge until answered.
  const unread = { ...learner.unread, offer: learner.unread.offer + home.needsReply.length };
  return {
    user: { username: user.username, level: user.level },
    learner: { ...learner, unread },
    popup,
    placement,
    home,
  };
}

export type DashboardData = Awaited<ReturnType<typeof loadDashboard>>;

const idLooksValid = (id: string) => id.length > 0 && id.length <= 200 && !hasControlCharacters(id);

/** What the dashboard's forms send as their `intent`: the cases of its action below. */
type DashboardIntent =
  | "add-task-link"
  | "delete-task-link"
  | "delete-resume"
  | "delete-photo"
  | "answer-offer"
  | "mark-read"
  | LearnerAssignmentIntent;

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<DashboardIntent, true> {}
}

/**
 * The dashboard's changes, by `intent`. The learner is always the signed-in user: no intent
 * takes a learner id, so an id from another learner names nothing this user's queries find.
 */
export async function dashboardAction(request: Request) {
  const change = await readOwnChange(request);
  if ("refused" in change) return change.refused;
  const { user, form, field } = change;
  const services = await getServices();
  const deps = { db: services.database.db, bus: services.bus };

  switch (field("intent") as DashboardIntent) {
    case "add-task-link": {
      const result = await addTaskLink(deps, user.id, field("link"));
      return result.ok ? { ok: true as const, message: "" } : refuse(400, result.message);
    }
    case "delete-task-link": {
      const id = field("id");
      // Already gone (deleted in another tab) is what the learner wanted.
      if (idLooksValid(id)) await deleteTaskLink(deps, user.id, id);
      return { ok: true as const, message: "" };
    }
    case "delete-resume":
      // Already gone (deleted in another tab) is what the learner wanted.
      await deleteResume({ ...deps, storage: services.storage, logger: services.logger }, user.id);
      return { ok: true as const, message: "" };
    case "delete-photo":
      // Already gone (removed in another tab) is what the learner wanted.
      await deleteProfilePhoto({ ...deps, storage: services.storage, logger: services.logger }, user.id);
      return { ok: true as const, message: profileMessages.photoRemoved };
    case "answer-offer": {
      // Only the holder's own offer letter: another's id matches nothing of theirs.
      const parsed = answerOfferSchema.safeParse({
        documentId: form.get("documentId") ?? undefined,
        answer: form.get("answer") ?? undefined,
      });
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      const today = todayIn(services.config.instituteTimeZone);
      const outcome = await answerOffer(deps, user.id, { ...parsed.data, today });
      if (outcome === "not-found") return refuse(404, documentMessages.notYours);
      if (outcome === "answered-before") return refuse(409, documentMessages.answered);
      if (outcome === "too-late") return refuse(409, documentMessages.tooLate);
      if (outcome === "revoked") return refuse(409, documentMessages.revoked);
      return {
        ok: true as const,
        message: parsed.data.answer === "accepted" ? documentMessages.accepted : documentMessages.declined,
      };
    }
    case "mark-read": {
      // Only what the popup showed: ids of the learner's own items (another's match nothing).
      const parsed = markReadSchema.safeParse({
        kind: form.get("kind") ?? undefined,
        ids: form.get("ids") ?? undefined,
      });
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      await markShownRead(deps, user.id, parsed.data.kind, parsed.data.ids);
      // The Tasks popup shows each assignment's conversation: its trainers' feedback is read too.
      if (parsed.data.kind === "task") await markFeedbackShown(deps, user.id, parsed.data.ids);
      return { ok: true as const, message: "" };
    }
    case "submit-assignment":
    case "reply-assignment":
      return learnerAssignmentAction(deps, user, field("intent") as LearnerAssignmentIntent, field);
    default:
      return refuse(400, "Unknown action.");
  }
}
