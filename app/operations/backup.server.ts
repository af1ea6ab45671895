// `npm run backup` (scripts/backup.ts): the archive's format is in backup-archive.server.ts.
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import yazl from "yazl";
import type { Config } from "~/config/config.server";
import { openDatabase } from "~/db/database.server";
import { busyTimeoutMs } from "~/db/node-sqlite.server";
import type { UploadStorage } from "~/uploads/storage.server";
import {
  OperationRefused,
  databaseEntry,
  digesting,
  manifestEntry,
  openStorage,
  sqliteFile,
  uploadsFolder,
  type Manifest,
} from "./backup-archive.server";

type Rows = Record<string, unknown>[];
type DatabaseDescription = Awaited<ReturnType<typeof describeDatabase>>;

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

/** The live PostgreSQL database described in one snapshot (it keeps changing meanwhile); pg_dump copies it. */
async function describePostgres(databaseUrl: string, dataDir: string): Promise<DatabaseDescription> {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    return await database.db
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
    live.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    await backup(live, destination, { rate: 2 ** 31 - 1 });
  } finally {
    live.close();
  }
}

/** The SQLite database copied to `destination`, checked, and described from the copy. */
async function copyAndDescribeSqlite(dataDir: string, destination: string): Promise<DatabaseDescription> {
  await copySqlite(path.join(dataDir, sqliteFile), destination);
  const { DatabaseSync } = await import("node:sqlite");
  const copy = new DatabaseSync(destination);
  try {
    const [check] = copy.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
    if (check?.quick_check !== "ok") throw new Error(`the database copy failed its check: ${check?.quick_check}`);
    const query = async (text: string) => copy.prepare(text).all() as Rows;
    const names = await query(`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`);
    return await describeDatabase(
      query,
      names.map((row) => String(row.name)),
    );
  } finally {
    copy.close();
  }
}

/** A ZIP written to `file` (0600) one entry at a time, each entry's size and SHA-256 noted. */
function openArchive(file: string) {
  const zip = new yazl.ZipFile();
  const output = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  const written = pipeline(zip.outputStream, output);
  // Any failure of the archive (a full disk, say) ends the wait for an entry.
  const failed = new Promise<never>((_, reject) => {
    zip.on("error", reject);
    written.catch(reject);
  });
  failed.catch(() => {});
  const entries: Manifest["entries"] = [];
  return {
    output,
    entries,
    async add(name: string, source: Readable, compress: boolean) {
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
    },
    /** Adds the manifest last and waits until the whole archive is on disk. */
    async finish(manifest: Manifest) {
      zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), manifestEntry, { mode: 0o100600 });
      zip.end();
      await Promise.race([written, failed]);
    },
  };
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
  let archive: ReturnType<typeof openArchive> | undefined;
  try {
    let databaseCopy: string | undefined;
    let description: DatabaseDescription;
    if (config.databaseUrl) description = await describePostgres(config.databaseUrl, config.dataDir);
    else description = await copyAndDescribeSqlite(config.dataDir, (databaseCopy = path.join(staging, sqliteFile)));

    archive = openArchive(partial);
    if (databaseCopy) await archive.add(databaseEntry, fs.createReadStream(databaseCopy), true);
    const stored = new Set<string>();
    storage = openStorage(config);
    for await (const key of storage.list()) {
      const object = await storage.get(key);
      if (!object) continue; // deleted since it was listed
      await archive.add(`${uploadsFolder}${key}`, object.stream, false);
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
      entries: archive.entries,
    };
    await archive.finish(manifest);
    await fs.promises.rename(partial, file);
    return { manifest, missing: [...description.namedKeys].filter((key) => !stored.has(key)).sort() };
  } catch (error) {
    archive?.output.destroy();
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    storage?.close();
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}
