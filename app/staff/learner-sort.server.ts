import { sql, type Expression, type ExpressionBuilder, type OrderByModifiers } from "kysely";
import type { Database } from "~/db/schema";
import type { SortDirection, SortKey } from "./workspace-query";

type UserEb = ExpressionBuilder<Database, "user">;

/** Whether the learner has uploaded a resume, as 1 or 0 (their key is the resume's). */
export const hasResume = (eb: UserEb) =>
  sql<number>`case when exists ${eb.selectFrom("resume").select(sql.lit(1).as("one")).whereRef("resume.learnerId", "=", "user.id")} then 1 else 0 end`;

/** How many things the learner has not opened: messages (on the unread index) and their offer letter. */
export const unreadCount = (eb: UserEb) =>
  sql<number | string>`${eb
    .selectFrom("message")
    .select((m) => m.fn.countAll().as("n"))
    .whereRef("message.learnerId", "=", "user.id")
    .where("message.readAt", "is", null)} + ${eb
    .selectFrom("offer_letter")
    .select((o) => o.fn.countAll().as("n"))
    .whereRef("offer_letter.learnerId", "=", "user.id")
    .where("offer_letter.readAt", "is", null)}`;

/** The first (alphabetically) of the learner's batches, or null. */
const firstBatch = (eb: UserEb) =>
  eb
    .selectFrom("enrolment")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select((b) => b.fn.min("batch.name").as("name"))
    .whereRef("enrolment.learnerId", "=", "user.id");

type Term = [Expression<unknown> | ((eb: UserEb) => Expression<unknown>) | string, OrderByModifiers];

/**
 * The order of the list for a column and direction. Every order ends on the id, so pages never
 * overlap. The columns on the learner's row are each read in index order (name, course, phone,
 * joined and last active each have an index that starts with the learner condition); resume,
 * unread and batches are worked out per learner.
 */
export function sortTerms(key: SortKey, dir: SortDirection): Term[] {
  const joined: Term[] = [
    ["user.createdAt", dir],
    ["user.id", dir],
  ];
  switch (key) {
    case "name":
      return [
        [sql`lower("user"."username")`, dir],
        ["user.id", dir],
      ];
    case "course":
      return [["user.course", dir], ...joined];
    case "phone":
      return [
        ["user.phone", dir],
        ["user.id", dir],
      ];
    case "joined":
      return joined;
    case "active":
      return [
        [sql`coalesce("user"."lastActiveAt", '')`, dir],
        ["user.id", dir],
      ];
    case "resume":
      return [[hasResume, dir], ...joined];
    case "unread":
      return [[unreadCount, dir], ...joined];
    case "batches":
      // Learners in no batch come last either way.
      return [
        [(eb) => sql`case when ${firstBatch(eb)} is null then 1 else 0 end`, "asc"],
        [firstBatch, dir],
        ...joined,
      ];
  }
}
