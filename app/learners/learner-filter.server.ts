import { sql, type ExpressionBuilder, type Expression, type SqlBool } from "kysely";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { hourOfDayIn } from "~/core/dates";
import { allBatches, myBatches, type FilterClock, type LearnerFilter } from "./learner-filter";

// Which users are learners, and which of them a staff search and course filter match: the staff
// list, bulk sends, document issues and the placement lookups all read this one filter.

/**
 * The learner condition, written exactly as the 0003_staff indexes spell it
 * (`coalesce("role", '')`), so that both databases match those indexes.
 */
export const isLearner = sql<SqlBool>`coalesce("user"."role", '') = ''`;

/** A user-typed search as a LIKE pattern: `%`, `_` and the escape character match literally. */
export function containsPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The digits of a search that looks like a phone number (digits, spaces, `+`, `-`, brackets),
 * without the country code +91 or a leading trunk 0; null for any other search.
 */
function phoneDigits(search: string): string | null {
  if (!/^[+(\d][\d\s()+-]*$/.test(search) || !/\d/.test(search)) return null;
  const digits = search.replace(/\D/g, "");
  if (search.startsWith("+91") || (digits.length > 10 && digits.startsWith("91"))) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith("0")) return digits.slice(1);
  return digits;
}

/** The username or the email contains the text, case-insensitively (the staff list, the people page). */
export function nameOrEmailContains(eb: ExpressionBuilder<Database, "user">, text: string): Expression<SqlBool> {
  const pattern = containsPattern(text);
  return eb.or([
    sql<SqlBool>`lower("user"."username") like ${pattern} escape '\\'`,
    sql<SqlBool>`lower("user"."email") like ${pattern} escape '\\'`,
  ]);
}

/** The clock a filter is read by when the caller names none: now, days in UTC. */
const utcNow = (): FilterClock => ({ timeZone: "UTC", now: Date.now() });

/** The first instant of a day ('YYYY-MM-DD') in a time zone, as ISO-8601 (what `createdAt` holds). */
export function startOfDay(day: string, timeZone: string): string {
  return hourOfDayIn(new Date(`${day}T12:00:00Z`), 0, timeZone).toISOString();
}

/** The day after a day ('YYYY-MM-DD'). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The WHERE of a search and filter: learners, course equal, the text contained in the username
 * or email (case-insensitively), or for a phone-like search, its digits in the phone; then each
 * filter chosen. Batch and placement stage are `id in (…)` lists, so a small batch or stage can
 * drive the query from its own index; resume and unread items are figures on the learner's row.
 * `broad`: the filter is known to match more learners than a count shows (the list's page then
 * reads the sort's index in order and checks each learner on the way).
 */
export function learnerWhere(
  filter: LearnerFilter,
  clock: FilterClock = utcNow(),
  { broad = false }: { broad?: boolean } = {},
) {
  return (eb: ExpressionBuilder<Database, "user">): Expression<SqlBool> => {
    const terms: Expression<SqlBool>[] = [isLearner];
    if (filter.course) terms.push(eb("user.course", "=", filter.course));
    const search = filter.search.trim();
    const digits = phoneDigits(search);
    if (digits !== null) terms.push(sql<SqlBool>`"user"."phone" like ${containsPattern(digits)} escape '\\'`);
    else if (search) terms.push(nameOrEmailContains(eb, search));
    if (filter.batch === myBatches) {
      // The batches this staff member trains (none without one: a filter never widens by mistake).
      terms.push(
        eb(
          "user.id",
          "in",
          eb
            .selectFrom("enrolment")
            .innerJoin("batch_trainer", "batch_trainer.batchId", "enrolment.batchId")
            .select("enrolment.learnerId")
            .where("batch_trainer.staffId", "=", filter.trainerId ?? ""),
        ),
      );
    } else if (filter.batch && filter.batch !== allBatches) {
      terms.push(
        eb(
          "user.id",
          "in",
          eb.selectFrom("enrolment").select("enrolment.learnerId").where("enrolment.batchId", "=", filter.batch),
        ),
      );
    }
    if (filter.stage) {
      terms.push(
        eb(
          "user.id",
          "in",
          eb
            .selectFrom("job_application")
            .select("job_application.learnerId")
            .where("job_application.stage", "=", filter.stage),
        ),
      );
    }
    // Figures kept on the learner's row (migration 0038), each with an index of its own.
    if (filter.noResume) terms.push(eb("user.hasResume", "=", sql.lit(0)));
    if (filter.unread) terms.push(eb("user.unreadCount", ">", sql.lit(0)));
    if (filter.inactiveDays) {
      const since = new Date(clock.now - filter.inactiveDays * 86_400_000).toISOString();
      const lastActive = sql`coalesce("user"."lastActiveAt", '')`;
      // Broad (more learners than a count shows), the list is read in its sort's order and this
      // checked on the way: written so that it matches no index, neither database reads the
      // many inactive learners through the activity index and sorts them all first.
      terms.push(broad ? sql<SqlBool>`${lastActive} || '' < ${since}` : sql<SqlBool>`${lastActive} < ${since}`);
    }
    if (filter.joinedFrom) terms.push(eb("user.createdAt", ">=", startOfDay(filter.joinedFrom, clock.timeZone)));
    if (filter.joinedTo) terms.push(eb("user.createdAt", "<", startOfDay(nextDay(filter.joinedTo), clock.timeZone)));
    return eb.and(terms);
  };
}

/**
 * How many learners the search and filter match (the bulk-send confirmation's number). With
 * `upTo`, counting stops one past it: a result above `upTo` means "more than `upTo`".
 */
export async function countLearners(
  db: Db,
  filter: LearnerFilter,
  upTo?: number,
  clock?: FilterClock,
): Promise<number> {
  const matching = db.selectFrom("user").select(sql.lit(1).as("one")).where(learnerWhere(filter, clock));
  // A literal limit: SQLite runs the capped count at half the cost of a bound one.
  const row = await db
    .selectFrom((upTo === undefined ? matching : matching.limit(sql.lit(upTo + 1))).as("matching"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids of every matching learner (bulk send), newest first. */
export async function matchingLearnerIds(db: Db, filter: LearnerFilter, clock?: FilterClock): Promise<string[]> {
  const rows = await db.selectFrom("user").select("id").where(learnerWhere(filter, clock)).execute();
  return rows.map((r) => r.id);
}

/** What the audience words name beside the filter's values: the batch's name, or whose batches "mine" are. */
export async function audienceNames(db: Db, filter: LearnerFilter): Promise<{ batch?: string; trainer?: string }> {
  if (filter.batch === myBatches) {
    const trainer = await db
      .selectFrom("user")
      .select(["username", "name", "email"])
      .where("id", "=", filter.trainerId ?? "")
      .executeTakeFirst();
    return trainer ? { trainer: personName(trainer) } : {};
  }
  if (!filter.batch || filter.batch === allBatches) return {};
  const row = await db.selectFrom("batch").select("name").where("id", "=", filter.batch).executeTakeFirst();
  return { batch: row?.name };
}

/** The institute's clock for a filter read now. */
export const clockOf = (config: { instituteTimeZone: string }): FilterClock => ({
  timeZone: config.instituteTimeZone,
  now: Date.now(),
});
