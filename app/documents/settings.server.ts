import { PostgresAdapter } from "kysely";
import sharp from "sharp";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { newStorageKey, type UploadStorage } from "~/uploads/storage.server";
import { signatureLimits, settingsMessages, type SettingsFields } from "./settings-rules";

/** What a new document is signed with. Null names: nobody is set up to sign yet. */
export interface DocumentSettings {
  signatoryName: string | null;
  signatoryTitle: string | null;
  /** The signature image, a PNG of at most signatureLimits.maxWidth × maxHeight; null when there is none. */
  signatureImage: Buffer | null;
}

/** Whether an admin has set who signs: until then no document is issued (it would sign as nobody). */
export async function hasSignatory(db: Db): Promise<boolean> {
  const row = await db.selectFrom("document_settings").select("signatoryName").where("id", "=", 1).executeTakeFirst();
  return Boolean(row?.signatoryName);
}

/** An action that issues documents, refused while nobody is set to sign them. */
export function needsSignatory<D extends { db: Db }, I, Made extends object>(
  run: (deps: D, actor: Actor, input: I) => Promise<ActionResult<Made>>,
): (deps: D, actor: Actor, input: I) => Promise<ActionResult<Made>> {
  return async (deps, actor, input) =>
    (await hasSignatory(deps.db))
      ? run(deps, actor, input)
      : { ok: false, status: 409, message: settingsMessages.noSignatory };
}

/**
 * The signature images read from storage, by key. A new image gets a new random key, so an
 * entry never goes stale; only the latest is kept.
 */
let cachedImage: { key: string; bytes: Buffer } | null = null;

/**
 * The settings every new document (and a reissue) is made with: one indexed read, and the
 * signature image from storage (kept in memory after the first read).
 */
export async function readDocumentSettings(db: Db, storage: UploadStorage): Promise<DocumentSettings> {
  const row = await db
    .selectFrom("document_settings")
    .select(["signatoryName", "signatoryTitle", "signatureKey"])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return { signatoryName: null, signatoryTitle: null, signatureImage: null };
  return {
    signatoryName: row.signatoryName || null,
    signatoryTitle: row.signatoryTitle || null,
    signatureImage: row.signatureKey ? await signatureBytes(row.signatureKey, storage) : null,
  };
}

async function signatureBytes(key: string, storage: UploadStorage): Promise<Buffer | null> {
  if (cachedImage?.key === key) return cachedImage.bytes;
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  cachedImage = { key, bytes };
  return bytes;
}

/** What the settings page shows: the names as typed, and the signature as a data URL. */
export async function settingsForPage(db: Db, storage: UploadStorage) {
  const [settings, row] = await Promise.all([
    readDocumentSettings(db, storage),
    db
      .selectFrom("document_settings")
      .leftJoin("user", "user.id", "document_settings.updatedBy")
      .select(["document_settings.updatedAt", "user.username", "user.email"])
      .executeTakeFirst(),
  ]);
  return {
    signatoryName: settings.signatoryName ?? "",
    signatoryTitle: settings.signatoryTitle ?? "",
    signature: settings.signatureImage ? `data:image/png;base64,${settings.signatureImage.toString("base64")}` : null,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row ? row.username || row.email || "a former staff member" : null,
  };
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The uploaded image as the PNG that is stored: checked to be a PNG by its bytes (signature,
 * then sharp's decoder), decoded with a pixel bound, fitted within the signature box without
 * enlarging, stripped of metadata and re-encoded as a palette PNG. Null when it is not a PNG.
 */
export async function prepareSignatureImage(bytes: Buffer): Promise<Buffer | { refused: string }> {
  if (bytes.length > signatureLimits.maxUploadBytes) return { refused: settingsMessages.imageTooLarge };
  if (!bytes.subarray(0, pngSignature.length).equals(pngSignature)) return { refused: settingsMessages.notPng };
  let png: Buffer;
  try {
    // A small file that claims enormous dimensions is refused, not expanded.
    const image = sharp(bytes, { limitInputPixels: 25_000_000, failOn: "error" });
    if ((await image.metadata()).format !== "png") return { refused: settingsMessages.notPng };
    png = await image
      .resize(signatureLimits.maxWidth, signatureLimits.maxHeight, { fit: "inside", withoutEnlargement: true })
      .png({ palette: true, colours: 64, compressionLevel: 9 })
      .toBuffer();
  } catch {
    return { refused: settingsMessages.notPng };
  }
  if (png.length > signatureLimits.maxStoredBytes) return { refused: settingsMessages.imageTooDetailed };
  return png;
}

export interface SettingsDeps {
  db: Db;
  storage: UploadStorage;
  logger?: Logger;
}

export type SaveResult = { ok: true; message: string } | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * Saves the signatory and, when given, a new signature image (or removes the image). The new
 * image is stored first under a new key; the row and its audit entry are written in one
 * transaction; the replaced image is deleted only after that commit (and the new one if it failed).
 */
export async function saveDocumentSettings(
  deps: SettingsDeps,
  actor: Actor,
  input: SettingsFields & { image: Buffer | null },
): Promise<SaveResult> {
  let newKey: string | null = null;
  if (input.image) {
    const prepared = await prepareSignatureImage(input.image);
    if (!Buffer.isBuffer(prepared)) {
      const status = prepared.refused === settingsMessages.imageTooLarge ? 413 : 415;
      return { ok: false, status, message: prepared.refused };
    }
    newKey = newStorageKey("signatures", ".png");
    await deps.storage.put(newKey, prepared);
  }
  let replacedKey: string | null = null;
  try {
    replacedKey = await deps.db.transaction().execute(async (trx) => {
      const read = trx.selectFrom("document_settings").select("signatureKey").where("id", "=", 1);
      // Locked on PostgreSQL (SQLite runs one transaction at a time), so of two saves at once
      // the second sees the first's image and deletes it, rather than leaving it unreferenced.
      const previous = await (
        trx.getExecutor().adapter instanceof PostgresAdapter ? read.forUpdate() : read
      ).executeTakeFirst();
      const keepImage = !newKey && !input.removeSignature;
      const signatureKey = newKey ?? (keepImage ? (previous?.signatureKey ?? null) : null);
      const row = {
        signatoryName: input.signatoryName,
        signatoryTitle: input.signatoryTitle,
        signatureKey,
        updatedBy: actor.id,
        updatedAt: new Date().toISOString(),
      };
      await trx
        .insertInto("document_settings")
        .values({ id: 1, ...row })
        .onConflict((oc) => oc.column("id").doUpdateSet(row))
        .execute();
      await recordAudit(trx, actor, {
        action: "document-settings",
        detail: newKey
          ? "new signature image"
          : input.removeSignature && previous?.signatureKey
            ? "signature image removed"
            : null,
        targetId: null,
        target: [input.signatoryName, input.signatoryTitle].filter(Boolean).join(", ") || "no signatory",
        count: 1,
      });
      const replaced = previous?.signatureKey ?? null;
      return replaced !== signatureKey ? replaced : null;
    });
  } catch (error) {
    if (newKey) await deps.storage.delete(newKey);
    throw error;
  }
  if (replacedKey) {
    await deps.storage.delete(replacedKey).catch((error: unknown) => {
      deps.logger?.error({ err: error, key: replacedKey }, "replaced signature image could not be deleted");
    });
  }
  return { ok: true, message: settingsMessages.saved };
}
