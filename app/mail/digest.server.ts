import type { Db } from "~/db/database.server";
import { emailKinds, type EmailKind, type EmailPreferences } from "./email-kinds";
import { readEmailPreferences } from "./email-preferences.server";
import { notificationContext, toLearner, type NotificationSettings } from "./learner-mail.server";
import { pendingMailJob, sendMail, skipMail, type MailHandler } from "./mail-queue.server";
import { digestEmail, digestItemLimit, type DigestItem } from "./notification-mail.server";
import { calendarDate, hourIn, hourOfDayIn } from "~/core/dates";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { writing } from "~/core/transaction.server";

/** A learner's digest window: what arrived after `from`, up to `to`. */
export interface DigestWindow {
  learnerId: string;
  from: string;
  to: string;
}

/** Several learners' windows read in one statement: what arrived after `from`, up to `to`. */
export interface DigestSpan {
  learnerIds: string[];
  from: string;
  to: string;
}

/** One learner's window as a span. */
export const spanOf = (window: DigestWindow): DigestSpan => ({
  learnerIds: [window.learnerId],
  from: window.from,
  to: window.to,
});

/**
 * Where a digest's items of some kinds come from (a feature's own table). `kinds` are the kinds
 * the learner put on the digest that this source lists.
 */
export interface DigestSource {
  /** The window's items of these kinds, oldest first, at most `limit`. */
  items(db: Db, window: DigestWindow, kinds: EmailKind[], limit: number): Promise<DigestItem[]>;
  /** How many items of these kinds the window holds. */
  count(db: Db, window: DigestWindow, kinds: EmailKind[]): Promise<number>;
  /** For each learner of the span with an item of these kinds in it, when the latest one arrived. */
  latest(db: Db, span: DigestSpan, kinds: EmailKind[]): Promise<Map<string, string>>;
}

/**
 * The sources of every kind a learner can put on the digest (tasks: the task messages, and the
 * assignments' reminders and reviews): a kind without its list fails the typecheck.
 */
export type DigestSources = Readonly<Record<EmailKind, readonly DigestSource[]>>;

const digestBatch = 500;

/**
 * The daily digest: `queueDue` queues, after the digest hour, the day's digest for each learner
 * with something new on it, and `handler` writes it from the sources when it is sent. A digest
 * lists what arrived up to the digest hour: what comes later waits for the next day's.
 */
export function dailyDigest(
  settings: NotificationSettings & { digestHour: number },
  sources: DigestSources,
): { queueDue: (now: Date) => Promise<void>; handler: MailHandler<"digest"> } {
  const { db } = settings;
  let cursor = "";

  /**
   * Once a day, whichever instance gets there first (the day is recorded in the same update
   * that moves the learner's digest window on). A few hundred learners are looked at per round.
   */
  async function queueDue(now: Date): Promise<void> {
    const { timeZone, digestHour } = settings;
    if (hourIn(now, timeZone) < digestHour) return;
    const today = calendarDate(now, timeZone);
    const candidates = await db
      .selectFrom("email_preference")
      .select(["learnerId", "digestFrom", ...emailKinds])
      .where("digestFrom", "is not", null)
      .where((w) => w.or([w("digestSentOn", "is", null), w("digestSentOn", "<", today)]))
      .where("learnerId", ">", cursor)
      .orderBy("learnerId")
      .limit(digestBatch)
      .execute();
    cursor = candidates.length === digestBatch ? candidates.at(-1)!.learnerId : "";
    // Not `now`: an item after the hour is the next day's, never a second mail the same evening.
    const cutoff = hourOfDayIn(now, digestHour, timeZone).toISOString();
    // Nothing before the hour: looked at again next round (an item stamped before the hour may
    // still be committing), and what comes after the hour waits for tomorrow's.
    const waiting = await withItemsWaiting(db, sources, candidates, cutoff);
    for (const candidate of candidates) {
      if (!waiting.has(candidate.learnerId) || !candidate.digestFrom) continue;
      // A queueing transaction each: the requests waiting meanwhile go between them.
      await yieldToEventLoop();
      await writing(db, { privately: [candidate.learnerId] }, async (trx) => {
        const moved = await trx
          .updateTable("email_preference")
          .set({ digestFrom: cutoff, digestSentOn: today })
          .where("learnerId", "=", candidate.learnerId)
          .where("digestFrom", "=", candidate.digestFrom)
          .where((w) => w.or([w("digestSentOn", "is", null), w("digestSentOn", "<", today)]))
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        await trx
          .insertInto("mail_job")
          .values(
            pendingMailJob({
              key: `digest:${candidate.learnerId}:${today}`,
              kind: "digest",
              learnerId: candidate.learnerId,
              windowStart: candidate.digestFrom,
              windowEnd: cutoff,
            }),
          )
          .onConflict((conflict) => conflict.column("key").doNothing())
          .execute();
      });
    }
  }

  const handler = toLearner<"digest">(db, async (job, learner) => {
    const kinds = digestKinds(await readEmailPreferences(db, learner.learnerId));
    if (kinds.length === 0) return skipMail("No kind is on the digest any more.");
    const window = { learnerId: learner.learnerId, from: job.windowStart ?? "", to: job.windowEnd ?? "" };
    const { items, more } = await digestItems(db, sources, window, kinds);
    if (items.length === 0) return skipMail("Nothing arrived (it was deleted).");
    return sendMail(digestEmail(await notificationContext(settings, learner, kinds), items, more));
  });

  return { queueDue, handler };
}

const digestKinds = (preferences: EmailPreferences): EmailKind[] =>
  emailKinds.filter((kind) => preferences[kind] === "digest");

/** Each source once, with the chosen kinds it lists (in the order of `emailKinds`). */
function sourcesAsked(sources: DigestSources, kinds: EmailKind[]): Map<DigestSource, EmailKind[]> {
  const asked = new Map<DigestSource, EmailKind[]>();
  for (const kind of kinds) {
    for (const source of sources[kind]) asked.set(source, [...(asked.get(source) ?? []), kind]);
  }
  return asked;
}

/**
 * The candidates with an item in their window (after their `digestFrom`, up to `to`). Most have
 * none until something arrives, and every round looks again: so each source is asked once for
 * all the candidates with the same kinds on the digest (read from the earliest start, each
 * learner's latest item then held against their own), not once per learner, and the requests
 * waiting meanwhile go between the statements.
 */
async function withItemsWaiting(
  db: Db,
  sources: DigestSources,
  candidates: (EmailPreferences & { learnerId: string; digestFrom: string | null })[],
  to: string,
): Promise<Set<string>> {
  const groups = new Map<string, { kinds: EmailKind[]; starts: Map<string, string> }>();
  for (const candidate of candidates) {
    const kinds = digestKinds(candidate);
    if (kinds.length === 0 || !candidate.digestFrom || candidate.digestFrom >= to) continue;
    const group = groups.get(kinds.join()) ?? { kinds, starts: new Map() };
    group.starts.set(candidate.learnerId, candidate.digestFrom);
    groups.set(kinds.join(), group);
  }
  const waiting = new Set<string>();
  for (const { kinds, starts } of groups.values()) {
    const from = [...starts.values()].reduce((earliest, start) => (start < earliest ? start : earliest));
    for (const [source, its] of sourcesAsked(sources, kinds)) {
      await yieldToEventLoop();
      const latest = await source.latest(db, { learnerIds: [...starts.keys()], from, to }, its);
      for (const [learnerId, at] of latest) if (at > starts.get(learnerId)!) waiting.add(learnerId);
    }
  }
  return waiting;
}

/**
 * What a digest lists for a learner in a window, oldest first, from every source of the chosen
 * kinds: at most `digestItemLimit`, and how many more there are.
 */
async function digestItems(
  db: Db,
  sources: DigestSources,
  window: DigestWindow,
  kinds: EmailKind[],
): Promise<{ items: DigestItem[]; more: number }> {
  const limit = digestItemLimit;
  const asked = sourcesAsked(sources, kinds);
  // Read up to the limit, and counted only past it.
  const all: DigestItem[] = [];
  for (const [source, its] of asked) all.push(...(await source.items(db, window, its, limit + 1)));
  all.sort((a, b) => (a.sentAt < b.sentAt ? -1 : a.sentAt > b.sentAt ? 1 : 0));
  if (all.length <= limit) return { items: all, more: 0 };
  // Past the limit, the rest are counted (a digest after weeks away).
  let total = 0;
  for (const [source, its] of asked) total += await source.count(db, window, its);
  return { items: all.slice(0, limit), more: total - limit };
}
