import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { compiledOnce } from "~/db/compiled-once.server";
import type { Db } from "~/db/database.server";
import { mailTopic, staffTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { Deps } from "~/core/deps";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { enquiryStatusLabels, type EnquiryInput, type EnquiryStatus } from "./enquiry-fields";

/** How many enquiries the inbox lists on one page. */
export const inboxPageSize = 50;

/** How long an enquiry is kept after its last change (the privacy policy says so). */
export const enquiryKeptDays = 730;

/**
 * Stores an enquiry and queues its email to the institute (SITE_EMAIL) in one transaction, so
 * neither a crash nor a mail server that is down loses it; staff pages hear of it after commit.
 */
export async function storeEnquiry(deps: Deps, input: EnquiryInput, now = new Date()): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await inTransaction(deps, { staff: true }, async (trx, bus) => {
    await trx
      .insertInto("enquiry")
      .values({
        id,
        name: input.name,
        phone: input.phone,
        email: input.email === "" ? null : input.email,
        course: input.course,
        message: input.message,
        callbackTime: input.callbackTime,
        status: "new",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await queueEnquiryMail(trx, { key: `enquiry:${id}`, kind: "enquiry", enquiryId: id }, now);
    await bus.publish(mailTopic, { type: "mail-queued" });
    await bus.publish(staffTopic, { type: "enquiries" });
  });
  return id;
}

async function queueEnquiryMail(
  trx: Db,
  job: { key: string; kind: "enquiry" | "enquiry-invite"; enquiryId: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto("mail_job")
    .values({
      key: job.key,
      kind: job.kind,
      learnerId: null,
      refId: job.enquiryId,
      windowStart: null,
      windowEnd: null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now.getTime(),
      lockedUntil: null,
      lastError: null,
      createdAt: now.toISOString(),
      finishedAt: null,
    })
    .execute();
}

/** The staff header's count: every signed-in staff page asks, so it is one indexed count. */
const newEnquiryCount = compiledOnce((db: Db, status: string) =>
  db
    .selectFrom("enquiry")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("status", "=", status as EnquiryStatus),
);

export async function countNewEnquiries(db: Db): Promise<number> {
  const [row] = await newEnquiryCount(db, "new");
  return Number(row?.count ?? 0);
}

export interface EnquirySummary {
  id: string;
  name: string;
  phone: string;
  course: string;
  status: EnquiryStatus;
  createdAt: string;
}

/** One page of the inbox, newest first, all or of one status; and whether there is more. */
export async function listEnquiries(
  db: Db,
  filter: { status: EnquiryStatus | null; page: number },
): Promise<{ enquiries: EnquirySummary[]; more: boolean }> {
  let query = db
    .selectFrom("enquiry")
    .select(["id", "name", "phone", "course", "status", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(inboxPageSize + 1)
    .offset((filter.page - 1) * inboxPageSize);
  if (filter.status) query = query.where("status", "=", filter.status);
  const rows = await query.execute();
  return { enquiries: rows.slice(0, inboxPageSize), more: rows.length > inboxPageSize };
}

/** The enquiry whole, with what staff did with it, oldest first. */
export async function enquiryDetail(db: Db, id: string) {
  const enquiry = await db.selectFrom("enquiry").selectAll().where("id", "=", id).executeTakeFirst();
  if (!enquiry) return null;
  const history = await db
    .selectFrom("enquiry_event")
    .select(["id", "actorName", "kind", "status", "note", "createdAt"])
    .where("enquiryId", "=", id)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return { ...enquiry, history };
}

export type EnquiryDetail = NonNullable<Awaited<ReturnType<typeof enquiryDetail>>>;

const notFound = { ok: false, status: 404, message: "This enquiry is no longer here." } as const;

/** Records what a staff member did to an enquiry, with its audit row, in the caller's transaction. */
async function recordEnquiryEvent(
  trx: Db,
  actor: Actor,
  enquiry: { id: string; name: string },
  event: { kind: "status" | "note" | "invite"; status?: EnquiryStatus; note?: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto("enquiry_event")
    .values({
      id: randomUUID(),
      enquiryId: enquiry.id,
      actorId: actor.id,
      actorName: actor.name,
      kind: event.kind,
      status: event.status ?? null,
      note: event.note ?? null,
      createdAt: now.toISOString(),
    })
    .execute();
  await trx.updateTable("enquiry").set({ updatedAt: now.toISOString() }).where("id", "=", enquiry.id).execute();
  await recordAudit(
    trx,
    actor,
    {
      action: `enquiry-${event.kind}`,
      detail: event.status ? enquiryStatusLabels[event.status] : null,
      // The audit log's target is a person with an account; an enquirer has none.
      targetId: null,
      target: `Enquiry from ${enquiry.name}`,
      count: 1,
    },
    now,
  );
}

/** Moves an enquiry to a status (staff intent `enquiry-status`). */
export async function setEnquiryStatus(
  deps: Deps,
  actor: Actor,
  input: { enquiryId: string; status: EnquiryStatus },
): Promise<ActionResult> {
  const outcome = await inTransaction(deps, { staff: true }, async (trx, bus) => {
    const enquiry = await trx
      .selectFrom("enquiry")
      .select(["id", "name", "status"])
      .where("id", "=", input.enquiryId)
      .executeTakeFirst();
    if (!enquiry) return "gone" as const;
    if (enquiry.status === input.status) return "same" as const;
    const now = new Date();
    await trx.updateTable("enquiry").set({ status: input.status }).where("id", "=", enquiry.id).execute();
    await recordEnquiryEvent(trx, actor, enquiry, { kind: "status", status: input.status }, now);
    await bus.publish(staffTopic, { type: "enquiries" });
    return "changed" as const;
  });
  if (outcome === "gone") return notFound;
  if (outcome === "same") {
    return { ok: false, status: 409, message: `This enquiry is already ${enquiryStatusLabels[input.status]}.` };
  }
  return { ok: true, message: `Marked ${enquiryStatusLabels[input.status]}.` };
}

/** Adds a staff note to an enquiry (staff intent `enquiry-note`). */
export async function addEnquiryNote(
  deps: Deps,
  actor: Actor,
  input: { enquiryId: string; note: string },
): Promise<ActionResult> {
  const done = await inTransaction(deps, { staff: true }, async (trx, bus) => {
    const enquiry = await trx
      .selectFrom("enquiry")
      .select(["id", "name"])
      .where("id", "=", input.enquiryId)
      .executeTakeFirst();
    if (!enquiry) return false;
    await recordEnquiryEvent(trx, actor, enquiry, { kind: "note", note: input.note }, new Date());
    await bus.publish(staffTopic, { type: "enquiries" });
    return true;
  });
  return done ? { ok: true, message: "Note added." } : notFound;
}

/**
 * Emails the enquirer a link to sign up (staff intent `enquiry-invite`), through the mail queue.
 * The link carries none of their details: an address with a name and phone in it would be kept
 * in browser histories and request logs.
 */
export async function inviteEnquirer(deps: Deps, actor: Actor, input: { enquiryId: string }): Promise<ActionResult> {
  const outcome = await inTransaction(deps, { staff: true }, async (trx, bus) => {
    const enquiry = await trx
      .selectFrom("enquiry")
      .select(["id", "name", "email"])
      .where("id", "=", input.enquiryId)
      .executeTakeFirst();
    if (!enquiry) return "gone" as const;
    if (!enquiry.email) return "no-email" as const;
    const registered = await trx
      .selectFrom("user")
      .select("id")
      .where(sql`lower("email")`, "=", enquiry.email.toLowerCase())
      .executeTakeFirst();
    if (registered) return "registered" as const;
    const now = new Date();
    await queueEnquiryMail(
      trx,
      { key: `enquiry-invite:${randomUUID()}`, kind: "enquiry-invite", enquiryId: enquiry.id },
      now,
    );
    await recordEnquiryEvent(trx, actor, enquiry, { kind: "invite" }, now);
    await bus.publish(mailTopic, { type: "mail-queued" });
    await bus.publish(staffTopic, { type: "enquiries" });
    return { email: enquiry.email };
  });
  if (outcome === "gone") return notFound;
  if (outcome === "no-email") {
    return { ok: false, status: 400, message: "This enquiry has no email address: call them instead." };
  }
  if (outcome === "registered") {
    return { ok: false, status: 409, message: "Someone has already signed up with this email address." };
  }
  return { ok: true, message: `Sign-up invitation queued for ${outcome.email}.` };
}

/** Deletes enquiries untouched for `enquiryKeptDays` (the sweep); returns how many. */
export async function purgeOldEnquiries(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - enquiryKeptDays * 86_400_000).toISOString();
  const result = await db.deleteFrom("enquiry").where("updatedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
