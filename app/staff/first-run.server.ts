import { sql } from "kysely";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Db } from "~/db/database.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { firstRunItems, type FirstRunItemKey } from "./first-run-items";

/** The checklist as an admin's /staff shows it: each item and whether the data says it is done. */
export type FirstRunChecklist = { key: FirstRunItemKey; done: boolean }[];

const flag = (condition: string) => sql.raw<number>(`case when ${condition} then 1 else 0 end`);

/**
 * The admins' first-run checklist, or null once it was dismissed or found done. Computed for
 * admins only (staff never pay for it): one read of its row, then, while it is open, one
 * statement of six indexed existence checks. Found done, it is recorded and never computed again.
 */
export async function firstRunChecklist(db: Db): Promise<FirstRunChecklist | null> {
  const row = await db
    .selectFrom("first_run")
    .select(["dismissedAt", "completedAt"])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (row?.dismissedAt || row?.completedAt) return null;
  const done = await db
    .selectNoFrom([
      // Published by an admin: the first start stores the configuration's brand with nobody's name.
      flag(
        `exists (select 1 from site_section where "key" = 'brand' and published is not null and "updatedBy" is not null)`,
      ).as("brand"),
      flag(`exists (select 1 from document_settings where id = 1 and "signatoryName" <> '')`).as("signatory"),
      // Every course the landing page shows can be chosen at sign-up (the catalogue's own warning).
      flag(
        `exists (select 1 from course where shown = 1) and not exists (select 1 from course c where c.shown = 1 ` +
          `and not exists (select 1 from signup_course_option o where o.label = c.title))`,
      ).as("courses"),
      // Terms belong to courses: a course the site shows carries them (its card shows the line).
      flag(`exists (select 1 from course where shown = 1 and "termsId" is not null)`).as("feeTerms"),
      flag(
        `exists (select 1 from testimonial where "consentAt" is not null) and exists (select 1 from hiring_partner)`,
      ).as("proof"),
      // Someone besides the first admin has a role (invited, or given one under People and roles):
      // a role sorts after '', so this seeks past the learners in their index instead of reading them.
      flag(`(select count(*) from (select 1 from "user" where coalesce("role", '') > '' limit 2) two) >= 2`).as(
        "staff",
      ),
    ])
    .executeTakeFirstOrThrow();
  const items = firstRunItems.map((item) => ({ key: item.key, done: Number(done[item.key]) === 1 }));
  if (items.every((item) => item.done)) {
    await db
      .insertInto("first_run")
      .values({ id: 1, dismissedAt: null, completedAt: new Date().toISOString() })
      .onConflict((conflict) => conflict.column("id").doUpdateSet({ completedAt: new Date().toISOString() }))
      .execute();
    return null;
  }
  return items;
}

/** An admin hides the checklist for every admin (intent `dismiss-first-run`), audited. */
export async function dismissFirstRun(deps: Deps, actor: Actor): Promise<ActionResult> {
  await inTransaction(deps, { staff: true }, async (trx) => {
    const now = new Date().toISOString();
    await trx
      .insertInto("first_run")
      .values({ id: 1, dismissedAt: now, completedAt: null })
      .onConflict((conflict) => conflict.column("id").doUpdateSet({ dismissedAt: now }))
      .execute();
    await recordAudit(trx, actor, {
      action: "dismiss-first-run",
      detail: null,
      targetId: null,
      target: "",
      count: 1,
    });
  });
  return { ok: true, message: "Checklist hidden. Everything on it stays where its link went." };
}
