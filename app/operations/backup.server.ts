// `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts).
//
// The archive is a ZIP rather than a tar: the project already writes and reads ZIPs (yazl,
// yauzl: no new dependency); its central directory lets restore read the manifest first and
// check every entry before it writes anything; and each entry is compressed on its own, so the
// database shrinks while PDFs and photos, compressed already, are stored as they are.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { sql } from "kysely";
import yauzl from "yauzl";
import yazl from "yazl";
import { z } from "zod";
import type { Config } from "~/config/config.server";
import { openDatabase } from "~/db/database.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { isStorageKey, LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";

const manifestEntry = "manifest.json";
const databaseEntry = "database/upskill.sqlite";
const sqliteFile = "upskill.sqlite";
const uploadsFolder = "uploads/";

const sha256Pattern = /^[0-9a-f]{64}$/;

const manifestSchema = z.object({
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
function openStorage(config: Config): UploadStorage {
  return config.storage ? new S3Storage(config.storage) : new LocalDiskStorage(path.join(config.dataDir, "uploads"));
}

/** A pass-through that counts and hashes what goes through it. */
function digesting(): { stream: Transform; result: Promise<{ size: number; sha256: string }> } {
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

type Rows = Record<string, unknown>[];

/** What the manifest says of a database, read with `query` (the SQLite copy, or PostgreSQL). */
async function describeDatabase(query: (text: string) => Promise<Rows>, tableNames: string[]) {
  const tables: Record<string, number> = {};
  for (const name of tableNames.sort()) {
    const [row] = await query(`select count(*) as n from "${name.replaceAll('"', '""')}"`);
    tables[name] = Number(row?.n);
  }
  const migration = tableNames.includes("kysely_migration")
    ? ((await query(`select max(name) as name from kysely_migration`))[0]?.name as string | null)
    : null;
  // The stored files the rows name, to tell which of them went missing while the backup ran.
  const referencing = [
    ["resume", "storageKey"],
    ["profile_photo", "storageKey"],
    ["document", "storageKey"],
    ["document_settings", "signatureKey"],
  ].filter(([table]) => tableNames.includes(table!));
  const named = referencing.length
    ? await query(referencing.map(([table, column]) => `select "${column}" as key from "${table}"`).join(" union all "))
    : [];
  return {
    tables,
    migration,
    namedKeys: new Set(named.map((row) => row.key).filter((key): key is string => typeof key === "string")),
  };
}

/**
 * A consistent copy of the SQLite database while the server keeps serving and writing: SQLite's
 * online backup in a single step, so it reads one snapshot (WAL readers never block writers).
 * In steps, every write by the server in between would restart it, and under steady writes it
 * might never finish.
 */
async function copySqlite(source: string, destination: string): Promise<void> {
  const { DatabaseSync, backup } = await import("node:sqlite");
  if (!fs.existsSync(source)) {
    throw new OperationRefused(`No database at ${source}: is DATA_DIR right?`);
  }
  const live = new DatabaseSync(source);
  try {
    live.exec("PRAGMA busy_timeout = 5000");
    await backup(live, destination, { rate: 2 ** 31 - 1 });
  } finally {
    live.close();
  }
}

export interface BackupSummary {
  manifest: Manifest;
  /** Keys the database names that were deleted before they could be copied (replaced meanwhile). */
  missing: string[];
}

/**
 * Writes one archive to `target`: manifest.json, the SQLite database (on PostgreSQL, pg_dump
 * makes that copy) and every stored file under uploads/<key>. The database is copied first and
 * the files after: a file is stored before the row that names it and deleted only after that
 * row changed, so every file the copy names is there unless it was deleted while this ran.
 * Written under a temporary name and renamed when complete; private to the user (0600).
 */
export async function createBackup(config: Config, target: string): Promise<BackupSummary> {
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw new OperationRefused(`${file} already exists: choose a new file name.`);
  const createdAt = new Date().toISOString();
  const staging = await fs.promises.mkdtemp(path.join(path.dirname(file), ".upskill-backup-"));
  const partial = `${file}.partial`;
  let storage: UploadStorage | undefined;
  let output: fs.WriteStream | undefined;
  try {
    let description: Awaited<ReturnType<typeof describeDatabase>>;
    let databaseCopy: string | undefined;
    if (config.databaseUrl) {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        // One snapshot for every count (the live database keeps changing meanwhile).
        description = await database.db
          .transaction()
          .setIsolationLevel("repeatable read")
          .execute(async (trx) => {
            const query = async (text: string) => (await sql.raw<Record<string, unknown>>(text).execute(trx)).rows;
            const names = await query(
              `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
            );
            return describeDatabase(
              query,
              names.map((row) => String(row.name)),
            );
          });
      } finally {
        await database.close();
      }
    } else {
      databaseCopy = path.join(staging, sqliteFile);
      await copySqlite(path.join(config.dataDir, sqliteFile), databaseCopy);
      const { DatabaseSync } = await import("node:sqlite");
      const copy = new DatabaseSync(databaseCopy);
      try {
        const [check] = copy.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
        if (check?.quick_check !== "ok") throw new Error(`the database copy failed its check: ${check?.quick_check}`);
        const query = async (text: string) => copy.prepare(text).all() as Rows;
        const names = await query(`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`);
        description = await describeDatabase(
          query,
          names.map((row) => String(row.name)),
        );
      } finally {
        copy.close();
      }
    }

    const zip = new yazl.ZipFile();
    output = fs.createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const written = pipeline(zip.outputStream, output);
    // Any failure of the archive (a full disk, say) ends the wait for an entry.
    const failed = new Promise<never>((_, reject) => {
      zip.on("error", reject);
      written.catch(reject);
    });
    failed.catch(() => {});
    const entries: Manifest["entries"] = [];
    const add = async (name: string, source: Readable, compress: boolean) => {
      const { stream, result } = digesting();
      // yazl does not watch the streams it is given: a source that fails is caught here.
      const sourceFailed = new Promise<never>((_, reject) => {
        source.on("error", reject);
        stream.on("error", reject);
      });
      sourceFailed.catch(() => {});
      zip.addReadStream(source.pipe(stream), name, { compress, mode: 0o100600 });
      // One entry at a time: a bucket's objects are read one after the other, never all open.
      entries.push({ name, ...(await Promise.race([result, failed, sourceFailed])) });
    };
    if (databaseCopy) await add(databaseEntry, fs.createReadStream(databaseCopy), true);
    const stored = new Set<string>();
    storage = openStorage(config);
    for await (const key of storage.list()) {
      const object = await storage.get(key);
      if (!object) continue; // deleted since it was listed
      await add(`${uploadsFolder}${key}`, object.stream, false);
      stored.add(key);
    }
    const manifest: Manifest = {
      format: "upskill-backup",
      version: 1,
      createdAt,
      database: {
        dialect: config.databaseUrl ? "postgres" : "sqlite",
        migration: description.migration,
        tables: description.tables,
      },
      entries,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), manifestEntry, { mode: 0o100600 });
    zip.end();
    await Promise.race([written, failed]);
    await fs.promises.rename(partial, file);
    return { manifest, missing: [...description.namedKeys].filter((key) => !stored.has(key)).sort() };
  } catch (error) {
    output?.destroy();
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    storage?.close();
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => (error ? reject(error) : resolve(zip))),
  );

async function readEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

const openEntry = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );

/** An entry's bytes passed to `destination`, with their size and SHA-256. */
async function readEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  destination: (source: Readable) => Promise<unknown>,
): Promise<{ size: number; sha256: string }> {
  const { stream, result } = digesting();
  const source = await openEntry(zip, entry);
  source.on("error", (error) => stream.destroy(error));
  await destination(source.pipe(stream));
  return result;
}

const matches = (actual: { size: number; sha256: string }, expected: Manifest["entries"][number]) =>
  actual.size === expected.size && actual.sha256 === expected.sha256;

async function isEmptyDirectory(directory: string): Promise<boolean> {
  try {
    return (await fs.promises.readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/**
 * Restores an archive of createBackup into an empty DATA_DIR (and, with STORAGE_URL, a bucket
 * with no stored files): checks every entry against the manifest first, and refuses a damaged
 * archive before writing anything. On PostgreSQL it restores the files; pg_restore does the
 * database. The database file is written last, under a temporary name.
 */
export async function restoreBackup(config: Config, archive: string): Promise<Manifest> {
  let zip: yauzl.ZipFile;
  let entries: Map<string, yauzl.Entry>;
  try {
    zip = await openZip(path.resolve(archive));
    entries = await readEntries(zip);
  } catch (error) {
    throw new OperationRefused(
      `${archive} is not a readable backup archive: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let storage: UploadStorage | undefined;
  try {
    const manifestFile = entries.get(manifestEntry);
    let manifest: Manifest;
    try {
      if (!manifestFile) throw new Error("no manifest");
      const chunks: Buffer[] = [];
      for await (const chunk of await openEntry(zip, manifestFile)) chunks.push(chunk as Buffer);
      manifest = manifestSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    } catch {
      throw new OperationRefused(`${archive} is not an Upskill backup: it has no readable ${manifestEntry}.`);
    }
    const listed = new Set(manifest.entries.map((entry) => entry.name));
    const unlisted = [...entries.keys()].find((name) => name !== manifestEntry && !listed.has(name));
    const absent = manifest.entries.find((entry) => !entries.has(entry.name));
    const badName = manifest.entries.find(
      (entry) =>
        entry.name !== databaseEntry &&
        !(entry.name.startsWith(uploadsFolder) && isStorageKey(entry.name.slice(uploadsFolder.length))),
    );
    if (unlisted || absent || badName) {
      const name = unlisted ?? absent?.name ?? badName?.name;
      throw new OperationRefused(`the archive is damaged: ${name} is not as the manifest says. Nothing was restored.`);
    }
    const hasDatabase = listed.has(databaseEntry);
    if (hasDatabase !== (manifest.database.dialect === "sqlite")) {
      throw new OperationRefused(`the archive is damaged: its database entry does not match its manifest.`);
    }
    if (hasDatabase && config.databaseUrl) {
      throw new OperationRefused(
        "this archive holds a SQLite database, but DATABASE_URL is set: unset it to restore into DATA_DIR.",
      );
    }
    if (!hasDatabase && !config.databaseUrl) {
      throw new OperationRefused(
        "this archive was taken on PostgreSQL and holds no database: set DATABASE_URL to the database you restore with pg_restore, then run this again.",
      );
    }
    if (!(await isEmptyDirectory(config.dataDir))) {
      throw new OperationRefused(`DATA_DIR ${config.dataDir} is not empty: restore only into an empty data directory.`);
    }
    if (config.storage) {
      storage = new S3Storage(config.storage);
      const keys = storage.list()[Symbol.asyncIterator]();
      const first = await keys.next();
      await keys.return?.();
      if (!first.done) {
        throw new OperationRefused("the bucket of STORAGE_URL already holds files: restore only into an empty one.");
      }
    }

    // Every entry is checked before anything is written.
    for (const expected of manifest.entries) {
      let actual: { size: number; sha256: string } | undefined;
      try {
        actual = await readEntry(zip, entries.get(expected.name)!, (source) => finished(source.resume()));
      } catch {
        // unreadable (bad compressed data, a size that differs): damaged as well
      }
      if (!actual || !matches(actual, expected)) {
        throw new OperationRefused(
          `the archive is damaged: ${expected.name} does not match its SHA-256 in the manifest. Nothing was restored.`,
        );
      }
    }

    try {
      await fs.promises.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
      // On disk, opening it makes DATA_DIR/uploads: only now that the archive is known good.
      storage ??= openStorage(config);
      const write = async (
        expected: Manifest["entries"][number],
        destination: (source: Readable) => Promise<unknown>,
      ) => {
        if (!matches(await readEntry(zip, entries.get(expected.name)!, destination), expected)) {
          throw new Error(`${expected.name} changed while it was restored`);
        }
      };
      for (const expected of manifest.entries) {
        if (expected.name === databaseEntry) continue;
        await write(expected, (source) => storage!.put(expected.name.slice(uploadsFolder.length), source));
      }
      const database = manifest.entries.find((entry) => entry.name === databaseEntry);
      if (database) {
        const target = path.join(config.dataDir, sqliteFile);
        await write(database, (source) =>
          pipeline(source, fs.createWriteStream(`${target}.partial`, { flags: "wx", mode: 0o600 })),
        );
        await fs.promises.rename(`${target}.partial`, target);
      }
    } catch (error) {
      throw new Error(
        `Restoring stopped: ${error instanceof Error ? error.message : String(error)}. DATA_DIR${config.storage ? " and the bucket" : ""} now hold part of the backup: empty ${config.storage ? "them" : "it"} before restoring again.`,
        { cause: error },
      );
    }
    return manifest;
  } finally {
    storage?.close();
    zip.close();
  }
}

/** The line that tells an operator of PostgreSQL what this archive leaves to them (as the README does). */
export const postgresNote =
  'The PostgreSQL database is not in this archive: dump it with pg_dump -Fc -f upskill.dump "$DATABASE_URL" (just before npm run backup) and restore it with pg_restore --no-owner -d "$DATABASE_URL" upskill.dump.';
