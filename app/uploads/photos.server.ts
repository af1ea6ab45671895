import { compiledOnce } from "~/db/compiled-once.server";
import { Readable } from "node:stream";
import sharp from "sharp";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import { countUploadBytes } from "~/metrics/metrics.server";
import type { EventBus } from "~/realtime/bus.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { photoMaxBytes, photoMessages } from "./photo-rules";
import { newStorageKey, type UploadStorage } from "./storage.server";
import { photoPath } from "./upload-paths";
import { swapStoredFile } from "./swap-stored-file.server";
import { writing } from "~/core/transaction.server";

export interface PhotoDeps {
  db: Db;
  storage: UploadStorage;
  bus: EventBus;
  logger?: Logger;
}

const acceptedFormats = new Set(["jpeg", "png", "webp"]);

export type PhotoResult = { ok: true; url: string } | { ok: false; status: number; message: string };

/** The public path of a stored photo: its random key is the capability. */
export function photoUrl(storageKey: string): string {
  return photoPath(storageKey.slice("photos/".length));
}

/** Reads a request body up to a limit; null when it is larger. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limit) {
      await body.cancel().catch(() => {});
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Replaces a learner's profile photo. The type comes from the bytes (sharp's decoder), not from
 * the name or header; the stored image is a 256×256 WebP re-encoded without any metadata (EXIF
 * location, camera), turned upright first. The old file is deleted after the new row is saved.
 */
export async function replaceProfilePhoto(deps: PhotoDeps, learnerId: string, bytes: Buffer): Promise<PhotoResult> {
  if (bytes.length > photoMaxBytes) return { ok: false, status: 413, message: photoMessages.tooLarge };
  let webp: Buffer;
  try {
    // Bounded decode: a small file that claims enormous dimensions is refused, not expanded.
    const image = sharp(bytes, { limitInputPixels: 50_000_000, failOn: "error" });
    const { format } = await image.metadata();
    if (!format || !acceptedFormats.has(format)) {
      return { ok: false, status: 415, message: photoMessages.wrongType };
    }
    webp = await image
      .rotate()
      .resize(256, 256, { fit: "cover", position: "attention" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    return { ok: false, status: 415, message: photoMessages.wrongType };
  }

  const key = newStorageKey("photos", ".webp");
  await deps.storage.put(key, webp);
  countUploadBytes("photo", webp.length);
  let previous: string | undefined;
  try {
    previous = await deps.db
      .transaction()
      .execute((trx) =>
        swapStoredFile(trx, "profile_photo", learnerId, { storageKey: key, updatedAt: new Date().toISOString() }),
      );
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
  if (previous) {
    await deps.storage.delete(previous).catch((error: unknown) => {
      deps.logger?.error({ err: error, key: previous }, "old profile photo could not be deleted");
    });
  }
  await announcePhoto(deps.bus, learnerId);
  return { ok: true, url: photoUrl(key) };
}

/**
 * Removes the learner's profile photo: the row first (the truth), then its file. False when
 * there was none (already removed in another tab).
 */
export async function deleteProfilePhoto(deps: PhotoDeps, learnerId: string): Promise<boolean> {
  const row = await writing(deps.db, { people: [learnerId] }, (trx) =>
    trx.deleteFrom("profile_photo").where("learnerId", "=", learnerId).returning("storageKey").executeTakeFirst(),
  );
  if (!row) return false;
  await deps.storage.delete(row.storageKey).catch((error: unknown) => {
    deps.logger?.error({ err: error, key: row.storageKey }, "removed profile photo's file could not be deleted");
  });
  await announcePhoto(deps.bus, learnerId);
  return true;
}

/** The learner's own tabs and every staff view show the photo (or its absence) again. */
function announcePhoto(bus: EventBus, learnerId: string) {
  return Promise.all([
    bus.publish(userTopic(learnerId), { type: "photo" }),
    bus.publish(staffTopic, { type: "photo", learnerId }),
  ]);
}

export async function profilePhotoUrl(db: Db, learnerId: string): Promise<string | null> {
  const [row] = await photoRow(db, learnerId);
  return row ? photoUrl(row.storageKey) : null;
}

const photoRow = compiledOnce((db: Db, learnerId: string) =>
  db.selectFrom("profile_photo").select("storageKey").where("learnerId", "=", learnerId),
);

/** Serves a photo by its unguessable name; anything else is 404. */
export async function photoResponse(storage: UploadStorage, name: string): Promise<Response> {
  if (!/^[0-9a-f]{32}\.webp$/.test(name)) return new Response("Not found", { status: 404 });
  const object = await storage.get(`photos/${name}`);
  if (!object) return new Response("Not found", { status: 404 });
  return new Response(Readable.toWeb(object.stream) as ReadableStream, {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(object.size),
      // A new photo gets a new name, so a stored one never changes.
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
