import { randomUUID } from "node:crypto";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { savedViewMessages, maxSavedViews, type SavedView } from "./saved-view-fields";
import { viewQuery } from "./workspace-query";

/** A staff member's own saved views, by name. */
export async function listSavedViews(db: Db, ownerId: string): Promise<SavedView[]> {
  return db
    .selectFrom("saved_view")
    .select(["id", "name", "query"])
    .where("ownerId", "=", ownerId)
    .orderBy("name")
    .execute();
}

/** Any saved view's address query, by its id (a shared link opens for every staff member). */
export async function savedViewQuery(db: Db, viewId: string): Promise<string | null> {
  const row = await db.selectFrom("saved_view").select("query").where("id", "=", viewId).executeTakeFirst();
  return row?.query ?? null;
}

/** Saves the filters and sort under a name; the same name again replaces that view's filters. */
export async function saveView(
  deps: Deps,
  actor: Actor,
  input: { name: string; query: string },
): Promise<ActionResult<{ viewId: string }>> {
  const name = input.name.trim();
  if (!name) return { ok: false, status: 400, message: savedViewMessages.nameRequired };
  const query = viewQuery(input.query);
  const outcome = await inTransaction(deps, { staff: true }, async (trx) => {
    const existing = await trx
      .selectFrom("saved_view")
      .select("id")
      .where("ownerId", "=", actor.id)
      .where("name", "=", name)
      .executeTakeFirst();
    if (existing) {
      await trx.updateTable("saved_view").set({ query }).where("id", "=", existing.id).execute();
    } else {
      const count = await trx
        .selectFrom("saved_view")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("ownerId", "=", actor.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= maxSavedViews) return { full: true as const };
      await trx
        .insertInto("saved_view")
        .values({ id: randomUUID(), ownerId: actor.id, name, query, createdAt: new Date().toISOString() })
        .execute();
    }
    await recordAudit(trx, actor, { action: "save-view", detail: query, targetId: null, target: name, count: 1 });
    const saved = await trx
      .selectFrom("saved_view")
      .select("id")
      .where("ownerId", "=", actor.id)
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    return { id: saved.id, replaced: Boolean(existing) };
  });
  if ("full" in outcome) return { ok: false, status: 409, message: savedViewMessages.tooMany };
  return {
    ok: true,
    message: outcome.replaced ? savedViewMessages.replaced(name) : savedViewMessages.saved(name),
    viewId: outcome.id,
  };
}

/** Deletes one of the staff member's own views. */
export async function deleteView(deps: Deps, actor: Actor, input: { viewId: string }): Promise<ActionResult> {
  const name = await inTransaction(deps, { staff: true }, async (trx) => {
    const view = await trx
      .selectFrom("saved_view")
      .select(["id", "name"])
      .where("id", "=", input.viewId)
      .where("ownerId", "=", actor.id)
      .executeTakeFirst();
    if (!view) return null;
    await trx.deleteFrom("saved_view").where("id", "=", view.id).execute();
    await recordAudit(trx, actor, { action: "delete-view", detail: null, targetId: null, target: view.name, count: 1 });
    return view.name;
  });
  if (name === null) return { ok: false, status: 404, message: savedViewMessages.gone };
  return { ok: true, message: savedViewMessages.deleted(name) };
}
