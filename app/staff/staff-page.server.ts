import { data, redirect } from "react-router";
import { hasAccess } from "~/core/access";
import { accessMessages } from "~/core/access";
import { authorizeFormChange, refuse, requireRole } from "~/accounts/permissions.server";
import type { SessionUser } from "~/core/people";
import { listDocuments } from "~/documents/documents.server";
import { hasSignatory } from "~/documents/settings.server";
import { getOfferLetter, sentToLearner } from "~/messages/messages.server";
import { getServices } from "~/platform/services.server";
import { consumeAttempt, tooManyRequests } from "~/security/rate-limit.server";
import { idFromAddress } from "~/core/text";
import { actorNameOf, auditPage, learnerNameOf } from "./audit-log.server";
import { auditQuerySchema } from "./audit-log-query";
import { actorOf } from "~/core/people";
import { batchChoices, learnerCard, learnerCourses, searchLearners } from "./search.server";
import { isStaffIntentName, staffIntents } from "./staff-intents.server";
import { listPeople, rolesInUse } from "./people.server";
import { addressFilter, addressSort, peopleSearchSchema, searchSchema } from "./staff-types";
import { clockOf } from "~/learners/learner-filter.server";
import { filterQuery, myBatches } from "~/learners/learner-filter";
import { viewParams } from "./workspace-query";
import { staffMessages } from "~/learners/staff-messages";
import { todayIn } from "~/core/dates";
import { listSavedViews, savedViewQuery } from "./saved-views.server";
import { savedViewMessages } from "./saved-view-fields";
import { firstRunChecklist } from "./first-run.server";
import { trainedBatchIds } from "~/batches/batch-edit.server";

const viewer = (user: SessionUser) => ({ id: user.id, level: user.level });

/** /staff: one page of learners for the URL's search, course and page. */
export async function loadStaffWorkspace(request: Request) {
  const user = await requireRole(request, "staff");
  const params = new URL(request.url).searchParams;
  const { database, config } = await getServices();
  const viewId = params.get("view");
  if (viewId !== null) throw await openSavedView(database.db, viewId);
  const myBatchIds = await trainedBatchIds(database.db, user.id);
  if (myBatchIds.length > 0 && !filterParams.some((name) => params.get(name))) {
    // A trainer starts with their own batches, in the address, where they can clear it ("all").
    params.set("batch", myBatches);
    throw redirect(`/staff?${params}`);
  }
  const parsed = searchSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) throw data({ message: parsed.error.issues[0]?.message ?? "Invalid search." }, { status: 400 });
  const filter = addressFilter(parsed.data, user.id);
  if ("refused" in filter) throw data({ message: filter.refused }, { status: 400 });
  const sort = addressSort(parsed.data);
  const { page, size, selected } = parsed.data;
  const [results, courses, signatorySet, savedViews, batches] = await Promise.all([
    searchLearners(database.db, filter, page, {
      exactCount: parsed.data.count === "exact",
      pageSize: size,
      sort,
      clock: clockOf(config),
    }),
    learnerCourses(database.db),
    hasSignatory(database.db),
    listSavedViews(database.db, user.id),
    batchChoices(database.db),
  ]);
  // The expanded card: only a learner listed on this page.
  const expanded = selected && results.learners.some((learner) => learner.id === selected) ? selected : null;
  const admin = hasAccess(user.level, "admin");
  const [card, letter, roles] = expanded
    ? await Promise.all([
        learnerCard(database.db, expanded),
        admin ? getOfferLetter(database.db, expanded) : null,
        admin ? rolesInUse(database.db) : [],
      ])
    : [null, null, []];
  return {
    user: viewer(user),
    filter,
    /** The filter as the address writes it (the bulk confirmation's count is matched on it). */
    filterQuery: filterQuery(filter),
    sort,
    results,
    courses,
    /** Every batch, for the batch filter and bulk enrolment. */
    batches,
    /** The batches this staff member trains ("My batches"). */
    myBatchIds,
    /** The expanded card's learner, whole. */
    selected: card,
    /** The expanded card's offer letter, for admins. */
    offerLetter: letter?.html ?? null,
    /** The role names in use, for an admin's role select on the expanded card. */
    roles,
    /** Today in the institute's time zone: a new certificate's issue date. */
    today: todayIn(config.instituteTimeZone),
    /** Whether an admin has set who signs documents (none are issued until then). */
    signatorySet,
    timeZone: config.instituteTimeZone,
    /** The staff member's own saved views. */
    savedViews,
    /** Admins: the first-run checklist while it is open (firstRunChecklist). */
    firstRun: admin ? await firstRunChecklist(database.db) : null,
  };
}

/** The address parameters that filter the list: with none of them, a trainer starts with their batches. */
const filterParams = viewParams.filter((name) => name !== "sort" && name !== "dir" && name !== "size");

/** A saved view's link (`/staff?view=<id>`, any staff member's): the workspace with its filters and sort. */
async function openSavedView(db: Parameters<typeof savedViewQuery>[0], viewId: string) {
  const id = idFromAddress(viewId);
  const query = id ? await savedViewQuery(db, id) : null;
  if (query === null) return data({ message: savedViewMessages.unknown }, { status: 404 });
  return redirect(`/staff${query ? `?${query}` : ""}`);
}

/** /staff/learners/:id: one learner, and for admins their offer letter. */
export async function loadLearnerPage(request: Request, id: string | undefined) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  const learnerId = idFromAddress(id);
  const learner = learnerId ? await learnerCard(database.db, learnerId) : null;
  if (!learner) throw data({ message: staffMessages.notALearner }, { status: 404 });
  const admin = hasAccess(user.level, "admin");
  const [sent, offerLetter, roles, documents, signatorySet] = await Promise.all([
    sentToLearner(database.db, learner.id),
    admin ? getOfferLetter(database.db, learner.id) : null,
    admin ? rolesInUse(database.db) : [],
    listDocuments(database.db, learner.id),
    hasSignatory(database.db),
  ]);
  return {
    user: viewer(user),
    learner,
    sent,
    offerLetter,
    roles,
    documents,
    signatorySet,
    today: todayIn(config.instituteTimeZone),
    timeZone: config.instituteTimeZone,
  };
}

/** /staff/people: everyone with a role (staff see it; admins change roles there). */
export async function loadPeople(request: Request) {
  const user = await requireRole(request, "staff");
  const parsed = peopleSearchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw data({ message: parsed.error.issues[0]?.message ?? "Invalid search." }, { status: 400 });
  const { database, config } = await getServices();
  const [people, roles] = await Promise.all([listPeople(database.db, parsed.data.q), rolesInUse(database.db)]);
  return { user: viewer(user), q: parsed.data.q, people, roles, timeZone: config.instituteTimeZone };
}

/** /staff/audit: staff actions newest first, filtered by who, action, learner and days (admins only). */
export async function loadAudit(request: Request) {
  const user = await requireRole(request, "admin");
  const parsed = auditQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw data({ message: parsed.error.issues[0]?.message ?? "Invalid filter." }, { status: 400 });
  const query = parsed.data;
  const { database, config } = await getServices();
  const [page, people, learnerName, actorName] = await Promise.all([
    auditPage(database.db, query, config.instituteTimeZone),
    listPeople(database.db, ""),
    query.learner ? learnerNameOf(database.db, query.learner) : null,
    query.who ? actorNameOf(database.db, query.who) : null,
  ]);
  const actors = people.map((person) => ({ id: person.id, name: person.name }));
  // Someone who acted and no longer has a role is still a choice when the address names them.
  if (query.who && !actors.some((actor) => actor.id === query.who))
    actors.push({ id: query.who, name: actorName ?? "Someone without a role" });
  return {
    user: viewer(user),
    query,
    page,
    actors,
    learnerName,
    timeZone: config.instituteTimeZone,
  };
}

/**
 * Every staff page's action: the gate (staff, one unit of their budget), then the `intent`'s
 * own rules (admin only, its fields, its own limit), then the action, audited in its transaction.
 */
export async function staffAction(request: Request) {
  const access = await authorizeFormChange(request, "staff");
  if (!access.ok) return access.refusal;
  const { user, fields } = access;
  const name = fields.intent ?? "";
  const intent = isStaffIntentName(name) ? staffIntents[name] : undefined;
  if (!intent) return refuse(400, "Unknown action.");
  const prepared = intent.prepare(fields);
  if (!hasAccess(user.level, intent.need)) {
    const specific = prepared.ok ? prepared.staffRefusal : undefined;
    return refuse(
      403,
      specific ?? (name === "clear" ? staffMessages.noClearPermission("notice") : accessMessages.adminOnly),
    );
  }
  if (!prepared.ok) return refuse(400, prepared.message);
  const { database, bus, storage, mailer, logger, config, documentJobs } = await getServices();
  if (intent.ownLimit && !(await consumeAttempt(database.db, `${name}:${user.id}`, intent.ownLimit))) {
    return refuse(429, tooManyRequests);
  }
  const deps = { db: database.db, bus, storage, mailer, logger, config, documentJobs };
  const result = await prepared.run(deps, actorOf(user));
  if (!result.ok) {
    const { status, message, ...extra } = result;
    return refuse(status, message, extra);
  }
  return result;
}
