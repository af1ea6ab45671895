import { profileFieldNames, type ProfileField } from "~/accounts/sign-up-schema";
import { randomBytes, randomUUID } from "node:crypto";
import type { Auth } from "~/accounts/auth.server";
import type { Db } from "~/db/database.server";
import { queueInvitations } from "~/accounts/invitations.server";
import type { EventBus } from "~/realtime/bus.server";
import { mailTopic, staffTopic, userTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import { checkRows, courseOptionsOf, emailsOf, planChecked, usersByEmail, type CheckedRow } from "./import-plan.server";
import {
  importColumns,
  importLimits,
  importMessages,
  importModes,
  totalsInWords,
  type FailedRow,
  type ImportMode,
  type ImportResult,
  type ImportTotals,
} from "./import-types";
import { storedFileName } from "~/uploads/stored-file-name";
import type { ImportRow } from "./learner-file.server";

/** A dry run kept for its Import click: the parsed rows, under a random id, for this admin, for an hour. */
export async function saveDryRun(
  db: Db,
  actor: Actor,
  input: { fileName: string; mode: ImportMode; rows: ImportRow[]; extraColumns: string[] },
  now = new Date(),
): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  // Old dry runs and results go as new ones come.
  await db.deleteFrom("learner_import").where("expiresAt", "<", now.toISOString()).execute();
  await db
    .insertInto("learner_import")
    .values({
      id,
      actorId: actor.id,
      fileName: storedFileName(input.fileName, "learners.csv"),
      mode: input.mode,
      status: "pending",
      extraColumns: JSON.stringify(input.extraColumns),
      rows: JSON.stringify(input.rows),
      result: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + importLimits.keptMs).toISOString(),
    })
    .execute();
  return id;
}

export interface StoredImport {
  id: string;
  fileName: string;
  mode: ImportMode;
  status: "pending" | "importing" | "done";
  extraColumns: string[];
  rows: ImportRow[];
  result: ImportResult | null;
}

/** This admin's dry run or result, while it is kept; null for anyone else's, or an expired one. */
export async function findImport(db: Db, actorId: string, id: string, now = new Date()): Promise<StoredImport | null> {
  if (!id || id.length > 100) return null;
  const row = await db
    .selectFrom("learner_import")
    .selectAll()
    .where("id", "=", id)
    .where("actorId", "=", actorId)
    .where("expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    fileName: row.fileName,
    mode: row.mode,
    status: row.status,
    extraColumns: JSON.parse(row.extraColumns) as string[],
    rows: JSON.parse(row.rows) as ImportRow[],
    result: row.result ? (JSON.parse(row.result) as ImportResult) : null,
  };
}

/** The failed rows' download: each row's line, its values and the reason. */
export const failedRowsColumns = [
  { key: "line", header: "line" },
  ...importColumns.map((column) => ({ key: column, header: column })),
  { key: "reason", header: "reason" },
];

/**
 * The failed rows of this admin's finished import, as the download's records; null for anyone
 * else's, an expired or an unfinished one. Only the result is read: the dry run's rows, as large
 * again, are left unparsed, since parsing JSON holds the event loop.
 */
export async function failedRowRecords(db: Db, actorId: string, id: string, now = new Date()) {
  if (!id || id.length > 100) return null;
  const row = await db
    .selectFrom("learner_import")
    .select("result")
    .where("id", "=", id)
    .where("actorId", "=", actorId)
    .where("expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  if (!row?.result) return null;
  const result = JSON.parse(row.result) as ImportResult;
  return result.failed.map((failed) => ({ line: failed.line, ...failed.values, reason: failed.reason }));
}

export interface ImportDeps {
  db: Db;
  bus: EventBus;
  auth: Auth;
}

/** Rows written per transaction: each is short, so sign-ups and other writers go on meanwhile. */
const importBatchSize = 500;

/** What an import did so far, batch after batch. */
interface ImportProgress {
  totals: ImportTotals;
  failed: FailedRow[];
  /** The ids of the learners it created. */
  created: string[];
}

type Planned = ReturnType<typeof planChecked>[number];
type ValidDetails = Extract<CheckedRow["checked"], { ok: true }>["details"];

/**
 * Applies a dry run: claims it (a second click finds it running or done), then a batch of rows
 * per transaction, each planned again against the database as it is then (an email registered
 * since the dry run is skipped or updated, not duplicated). New learners are better-auth users
 * without a password (no credential account until they choose one, so signing in fails as for
 * a wrong password). The last transaction stores the result and writes the audit row. Staff
 * lists and the updated learners' tabs are told after each batch. The new learners'
 * invitations are queued with the result (the mail queue sends and retries them), so a failed
 * email never fails the import and a restart loses none.
 */
export async function applyImport(
  deps: ImportDeps,
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<{ ok: true; result: ImportResult } | { ok: false; status: 404 | 409; message: string }> {
  const stored = await findImport(deps.db, actor.id, id, now);
  if (!stored || stored.status === "done") return { ok: false, status: 404, message: importMessages.gone };
  const claimed = await deps.db
    .updateTable("learner_import")
    .set({ status: "importing" })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, status: 409, message: importMessages.busy };

  const context = await deps.auth.$context;
  const newId = () => context.generateId({ model: "user" }) || randomUUID();
  const checked = checkRows(stored.rows, await courseOptionsOf(deps.db));
  const progress: ImportProgress = { totals: { create: 0, update: 0, skip: 0, error: 0 }, failed: [], created: [] };
  try {
    for (let i = 0; i < checked.length; i += importBatchSize) {
      const batch = checked.slice(i, i + importBatchSize);
      const updated = await deps.db
        .transaction()
        .execute((trx) => importBatch(trx, batch, stored.mode, newId, progress));
      for (const learnerId of updated) await deps.bus.publish(userTopic(learnerId), { type: "profile", learnerId });
      if (updated.length > 0 || progress.created.length > 0) {
        const count = progress.totals.create + progress.totals.update;
        await deps.bus.publish(staffTopic, { type: "learners-imported", count });
      }
    }
  } catch (error) {
    // Nothing half-done is lost: committed batches stay, and Import again plans what is left.
    await deps.db.updateTable("learner_import").set({ status: "pending" }).where("id", "=", id).execute();
    throw error;
  }
  const result: ImportResult = { totals: progress.totals, failed: progress.failed, invited: progress.created.length };
  await finishImport(deps.db, actor, stored, result, progress.created);
  if (progress.created.length > 0) await deps.bus.publish(mailTopic, { type: "mail-queued" });
  return { ok: true, result };
}

/** One batch, in one transaction, planned against the database as it is now; returns the learners it updated. */
async function importBatch(
  trx: Db,
  batch: readonly CheckedRow[],
  mode: ImportMode,
  newId: () => string,
  progress: ImportProgress,
): Promise<string[]> {
  const planned = planChecked(batch, await usersByEmail(trx, emailsOf(batch)), mode);
  const at = new Date().toISOString();
  const inserted = await insertLearners(trx, planned, newId, at, progress);
  const changed: string[] = [];
  for (const plan of planned) {
    const values = plan.row.values;
    const line = plan.row.line;
    if (plan.action === "error") {
      progress.failed.push({ line, values, reason: plan.notes.join(" ") });
    } else if (plan.action === "create" && plan.row.checked.ok && !inserted.has(plan.row.checked.details.email)) {
      progress.failed.push({ line, values, reason: "This email was registered while the import ran." });
      progress.totals.error++;
      continue;
    } else if (plan.action === "update" && plan.row.checked.ok) {
      const learnerId = await updateLearner(trx, plan.row.checked.details, at);
      if (learnerId === null) {
        progress.failed.push({ line, values, reason: "This learner changed while the import ran." });
        progress.totals.error++;
        continue;
      }
      changed.push(learnerId);
    }
    progress.totals[plan.action]++;
  }
  return changed;
}

/** The batch's new learners; returns the emails written (one registered a moment ago is not). */
async function insertLearners(
  trx: Db,
  planned: readonly Planned[],
  newId: () => string,
  at: string,
  progress: ImportProgress,
): Promise<Set<string>> {
  const toCreate = planned.flatMap((p) => (p.action === "create" && p.row.checked.ok ? [p.row.checked.details] : []));
  const inserted = new Set<string>();
  if (toCreate.length === 0) return inserted;
  const rows = toCreate.map((details) => ({
    id: newId(),
    name: details.username,
    email: details.email,
    emailVerified: false,
    image: null,
    createdAt: at,
    updatedAt: at,
    ...profileOf(details),
    role: null,
  }));
  // An email registered a moment ago (a sign-up) is left alone, not a failed batch.
  const written = await trx
    .insertInto("user")
    .values(rows)
    .onConflict((oc) => oc.column("email").doNothing())
    .returning(["id", "email", "username"])
    .execute();
  for (const row of written) {
    inserted.add(row.email);
    progress.created.push(row.id);
  }
  return inserted;
}

/** The profile fields of a row's details, as the user row stores them. */
const profileOf = (details: ValidDetails) =>
  Object.fromEntries(profileFieldNames.map((name) => [name, details[name]])) as Record<ProfileField, string>;

/** A learner's profile as the row gives it; null when the email is no longer a learner's. */
async function updateLearner(trx: Db, details: ValidDetails, at: string): Promise<string | null> {
  const result = await trx
    .updateTable("user")
    .set({
      name: details.username,
      ...profileOf(details),
      updatedAt: at,
    })
    .where("email", "=", details.email)
    .where((eb) => eb.or([eb("role", "is", null), eb("role", "=", "")]))
    .returning("id")
    .executeTakeFirst();
  return result?.id ?? null;
}

/** The result kept for an hour, the audit row and the new learners' invitations, in one transaction. */
async function finishImport(db: Db, actor: Actor, stored: StoredImport, result: ImportResult, created: string[]) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("learner_import")
      .set({
        status: "done",
        result: JSON.stringify(result),
        rows: "[]",
        expiresAt: new Date(Date.now() + importLimits.keptMs).toISOString(),
      })
      .where("id", "=", stored.id)
      .execute();
    await recordAudit(trx, actor, {
      action: "import",
      // The audit log shows it as written: 'Imported learners (Add new only)'.
      detail: importModes.find((m) => m.value === stored.mode)!.label,
      targetId: null,
      target: `${stored.fileName}: ${totalsInWords(result.totals, "failed")}`,
      count: result.totals.create + result.totals.update,
    });
    await queueInvitations(trx, created);
  });
}
