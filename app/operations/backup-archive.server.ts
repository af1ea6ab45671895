// The archive `npm run backup` writes and `npm run restore` reads (backup.server.ts, restore.server.ts).
//
// The archive is a ZIP rather than a tar: the project already writes and reads ZIPs (yazl,
// yauzl: no new dependency); its central directory lets restore read the manifest first and
// check every entry before it writes anything; and each entry is compressed on its own, so the
// database shrinks while PDFs and photos, compressed already, are stored as they are.
import { createHash } from "node:crypto";
import path from "node:path";
import { Transform } from "node:stream";
import { z } from "zod";
import type { Config } from "~/config/config.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";

export const manifestEntry = "manifest.json";
export const databaseEntry = "database/upskill.sqlite";
export const sqliteFile = "upskill.sqlite";
export const uploadsFolder = "uploads/";

const sha256Pattern = /^[0-9a-f]{64}$/;

export const manifestSchema = z.object({
  format: z.literal("upskill-backup"),
  version: z.literal(1),
  /** When the backup started (ISO-8601): the database is as it was a moment after this. */
  createdAt: z.string(),
  database: z.object({
    dialect: z.enum(["sqlite", "postgres"]),
    /** The last migration applied, so a restore can tell which version of Upskill made it. */
    migration: z.string().nullable(),
    /** Rows per table, counted in the copy (SQLite) or in one snapshot of the live database (PostgreSQL). */
    tables: z.record(z.string(), z.number().int().nonnegative()),
  }),
  /** Every entry but this manifest: the SQLite file (not on PostgreSQL) and each stored file. */
  entries: z.array(
    z.object({
      name: z.string(),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(sha256Pattern),
    }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The operator asked for something that would lose or mix up data; the message says what. */
export class OperationRefused extends Error {
  override name = "OperationRefused";
}

/** Uploads as the app keeps them: STORAGE_URL's bucket, or the disk under DATA_DIR. */
export function openStorage(config: Config): UploadStorage {
  return config.storage ? new S3Storage(config.storage) : new LocalDiskStorage(path.join(config.dataDir, "uploads"));
}

/** A pass-through that counts and hashes what goes through it. */
export function digesting(): { stream: Transform; result: Promise<{ size: number; sha256: string }> } {
  const hash = createHash("sha256");
  let size = 0;
  let resolve!: (value: { size: number; sha256: string }) => void;
  const result = new Promise<{ size: number; sha256: string }>((r) => (resolve = r));
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      resolve({ size, sha256: hash.digest("hex") });
      callback();
    },
  });
  return { stream, result };
}

/** The line that tells an operator of PostgreSQL what this archive leaves to them (as the README does). */
export const postgresNote =
  'The PostgreSQL database is not in this archive: dump it with pg_dump -Fc -f upskill.dump "$DATABASE_URL" (just before npm run backup) and restore it with pg_restore --no-owner -d "$DATABASE_URL" upskill.dump.';
