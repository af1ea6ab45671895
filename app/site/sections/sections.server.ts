import type { Config } from "~/config/config.server";
import { recordAudit } from "~/core/audit.server";
import { formatDay } from "~/core/dates";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult, Refusal } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { publicSiteTopic } from "~/realtime/events";
import { brandFromConfig, defaultSections } from "./section-defaults.server";
import {
  policyKeys,
  sectionKeys,
  sectionMessages,
  sectionNames,
  type PolicyKey,
  type SectionKey,
  type SiteSections,
} from "./section-types";

// The public site's sections: what visitors see (published), what admins are preparing
// (draft: the published document until they change it), and the change from one to the other.

export interface SectionDeps extends Deps {
  site: Config["site"];
  timeZone: string;
}

type Row = { key: string; draft: string | null; published: string | null };

function assemble(rows: Row[], site: Config["site"], version: "draft" | "published"): SiteSections {
  const sections = defaultSections(site) as unknown as Record<SectionKey, unknown>;
  for (const row of rows) {
    if (!(sectionKeys as readonly string[]).includes(row.key)) continue;
    const stored = version === "draft" ? (row.draft ?? row.published) : row.published;
    if (stored !== null) sections[row.key as SectionKey] = JSON.parse(stored);
  }
  return sections as unknown as SiteSections;
}

/** Every section as visitors see it. */
export async function publishedSections(db: Db, site: Config["site"]): Promise<SiteSections> {
  const rows = await db.selectFrom("site_section").select(["key", "draft", "published"]).execute();
  return assemble(rows, site, "published");
}

/** Every section as the admins' preview shows it, and which sections have a draft. */
export async function draftSections(db: Db, site: Config["site"]) {
  const rows = await db.selectFrom("site_section").select(["key", "draft", "published"]).execute();
  return {
    sections: assemble(rows, site, "draft"),
    drafts: rows.filter((row) => row.draft !== null).map((row) => row.key as SectionKey),
  };
}

/**
 * At start: a database without a stored brand gets the configuration's (SITE_NAME, SITE_EMAIL…),
 * so from then on the admins' changes, not the environment, decide it.
 */
export async function storeStartingBrand(db: Db, site: Config["site"]): Promise<void> {
  await db
    .insertInto("site_section")
    .values({
      key: "brand",
      draft: null,
      published: JSON.stringify(brandFromConfig(site)),
      draftAt: null,
      publishedAt: new Date().toISOString(),
      updatedBy: null,
    })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
}

/** A change of a section's draft: the new document and what the audit log says, or a refusal. */
export type DraftChange<K extends SectionKey> = { ok: true; next: SiteSections[K]; detail: string } | Refusal;

/**
 * Changes one section's draft (read as it stands: the draft, else the published document, else
 * the product's copy) and audits it, in one transaction. Visitors see nothing until Publish.
 */
export async function changeDraft<K extends SectionKey>(
  deps: SectionDeps,
  actor: Actor,
  key: K,
  change: (current: SiteSections[K]) => DraftChange<K>,
): Promise<ActionResult> {
  return inTransaction(deps, { staff: true }, async (trx) => {
    const rows = await trx
      .selectFrom("site_section")
      .select(["key", "draft", "published"])
      .where("key", "=", key)
      .execute();
    const current = assemble(rows, deps.site, "draft")[key];
    const outcome = change(current);
    if (!outcome.ok) return outcome;
    const now = new Date().toISOString();
    const draft = JSON.stringify(outcome.next);
    await trx
      .insertInto("site_section")
      .values({ key, draft, published: null, draftAt: now, publishedAt: null, updatedBy: actor.id })
      .onConflict((conflict) => conflict.column("key").doUpdateSet({ draft, draftAt: now, updatedBy: actor.id }))
      .execute();
    await recordAudit(trx, actor, {
      action: "site-section",
      detail: outcome.detail,
      targetId: null,
      target: sectionNames[key],
      count: 1,
    });
    return { ok: true, message: sectionMessages.saved };
  });
}

/** Drops a section's draft: the admins' editor and preview show the published one again. */
export async function discardDraft(deps: SectionDeps, actor: Actor, key: SectionKey): Promise<ActionResult> {
  return inTransaction(deps, { staff: true }, async (trx) => {
    const result = await trx
      .updateTable("site_section")
      .set({ draft: null, draftAt: null })
      .where("key", "=", key)
      .where("draft", "is not", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return { ok: false, status: 409, message: sectionMessages.noDraft };
    await recordAudit(trx, actor, {
      action: "site-section",
      detail: "draft discarded",
      targetId: null,
      target: sectionNames[key],
      count: 1,
    });
    return { ok: true, message: sectionMessages.discarded };
  });
}

/**
 * Publishes every draft at once, audited in the same transaction; a policy whose text changed
 * says it was updated today. After commit every instance's cached pages rebuild.
 */
export async function publishDrafts(deps: SectionDeps, actor: Actor, now = new Date()): Promise<ActionResult> {
  // The brand is in every page's header.
  return inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const rows = await trx
      .selectFrom("site_section")
      .select(["key", "draft", "published"])
      .where("draft", "is not", null)
      .execute();
    if (rows.length === 0) return { ok: false, status: 409, message: sectionMessages.nothingToPublish };
    const before = assemble(rows, deps.site, "published");
    const stamp = now.toISOString();
    for (const row of rows) {
      let published = row.draft!;
      if ((policyKeys as readonly string[]).includes(row.key)) {
        const policy = JSON.parse(published) as SiteSections[PolicyKey];
        if (policy.body !== before[row.key as PolicyKey].body) {
          published = JSON.stringify({ ...policy, updated: formatDay(stamp, deps.timeZone) });
        }
      }
      await trx
        .updateTable("site_section")
        .set({ published, draft: null, draftAt: null, publishedAt: stamp, updatedBy: actor.id })
        .where("key", "=", row.key)
        .execute();
    }
    const names = sectionKeys.filter((key) => rows.some((row) => row.key === key)).map((key) => sectionNames[key]);
    await recordAudit(
      trx,
      actor,
      { action: "site-publish", detail: names.join(", "), targetId: null, target: "Public site", count: rows.length },
      now,
    );
    await bus.publish(publicSiteTopic, { type: "public-site-changed" });
    return { ok: true, message: sectionMessages.published };
  });
}
