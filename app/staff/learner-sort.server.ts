import { sql, type Expression, type ExpressionBuilder, type OrderByModifiers } from "kysely";
import type { Database } from "~/db/schema";
import type { SortDirection, SortKey } from "./workspace-query";

type UserEb = ExpressionBuilder<Database, "user">;

type Term = [Expression<unknown> | ((eb: UserEb) => Expression<unknown>) | string, OrderByModifiers];

/**
 * The order of the list for a column and direction. Every order ends on the id, so pages never
 * overlap, and each is read in the order of an index that starts with the learner condition
 * (0003, 0030, 0031, 0038 and 0047): resume, unread, batches and assignments overdue are figures
 * kept on the learner's row (decisions 019 and 025), so no order works anything out per learner.
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
      return [["user.hasResume", dir], ...joined];
    case "unread":
      return [["user.unreadCount", dir], ...joined];
    case "overdue":
      return [["user.overdueCount", dir], ...joined];
    case "batches":
      // Learners in no batch come last either way (an index for each direction).
      return [[sql`("user"."firstBatch" is null)`, "asc"], ["user.firstBatch", dir], ...joined];
  }
}
