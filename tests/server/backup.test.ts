import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import { loadConfig, type Config } from "~/config/config.server";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { createBackup } from "~/operations/backup.server";
import { restoreBackup } from "~/operations/restore.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { LocalDiskStorage, newStorageKey, type UploadStorage } from "~/uploads/storage.server";
import { insertUser } from "../support/databases";
import { describeEachStorage, disk, type TestStorage, type TestStorageHandle } from "../support/storages";

// `npm run backup` and `npm run restore` (app/operations/backup.server.ts) on the real database
// and the real upload storage, on disk and in an S3-compatible bucket. The copy while a server
// writes over HTTP is tests/e2e/backup-restore.spec.ts.

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const lastMigration = Object.keys(migrations).sort().at(-1);

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-backup-test-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

interface Site {
  dataDir: string;
  store: TestStorageHandle;
  config: Config;
  storage(): UploadStorage;
}

/** A data directory (not made yet) and an empty store, with the configuration that names them. */
async function newSite(kind: TestStorage, env: Record<string, string> = {}): Promise<Site> {
  const dataDir = path.join(tempDir(), "data");
  const store = await kind.open(dataDir);
  cleanups.push(() => store.dispose());
  const config = loadConfig({ DATA_DIR: dataDir, ...store.env, ...env });
  return {
    dataDir,
    store,
    config,
    storage() {
      const storage = config.storage
        ? new S3Storage(config.storage)
        : new LocalDiskStorage(path.join(config.dataDir, "uploads"));
      cleanups.push(() => storage.close());
      return storage;
    },
  };
}

async function open(dataDir: string): Promise<DatabaseHandle> {
  const handle = await openDatabase({ dataDir });
  cleanups.push(() => handle.close());
  return handle;
}

/** A resume, a photo and a document PDF, stored. */
async function storeFiles(storage: UploadStorage): Promise<Map<string, Buffer>> {
  const files = new Map([
    [newStorageKey("resumes", ".pdf"), Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(40_000)])],
    [newStorageKey("photos", ".webp"), randomBytes(3_000)],
    [newStorageKey("documents", ".pdf"), Buffer.from("%PDF-1.7\ncertificate\n")],
  ]);
  for (const [key, data] of files) await storage.put(key, data);
  return files;
}

describeEachStorage("backup and restore [sqlite]", (kind) => {
  it("copy the open database and every stored file, and restore them into an empty data directory", async () => {
    const source = await newSite(kind);
    const database = await open(source.dataDir);
    await migrateToLatest(database.db);
    const learnerId = await insertUser(database.db, { name: "Meera", email: "meera@example.com" });
    await database.db
      .insertInto("task_link")
      .values({ id: randomUUID(), learnerId, link: "https://example.com/day1", createdAt: new Date().toISOString() })
      .execute();
    const files = await storeFiles(source.storage());

    // The database stays open (and in WAL mode) throughout, as under a running server.
    const archive = path.join(tempDir(), "upskill.zip");
    const { manifest, missing } = await createBackup(source.config, archive);
    expect(missing).toEqual([]);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(manifest.database).toMatchObject({
      dialect: "sqlite",
      migration: lastMigration,
      tables: { user: 1, task_link: 1, message: 0 },
    });
    expect(manifest.entries.map((entry) => entry.name).sort()).toEqual(
      ["database/upskill.sqlite", ...[...files.keys()].map((key) => `uploads/${key}`)].sort(),
    );
    for (const [key, data] of files) {
      expect(manifest.entries.find((entry) => entry.name === `uploads/${key}`)).toEqual({
        name: `uploads/${key}`,
        size: data.length,
        sha256: sha256(data),
      });
    }
    // Nothing is left beside the archive (the database copy is made in a folder of its own).
    expect(fs.readdirSync(path.dirname(archive))).toEqual(["upskill.zip"]);

    const target = await newSite(kind);
    const restored = await restoreBackup(target.config, archive);
    expect(restored).toEqual(manifest);
    const copy = await open(target.dataDir);
    expect(await copy.db.selectFrom("task_link").select(["learnerId", "link"]).execute()).toEqual([
      { learnerId, link: "https://example.com/day1" },
    ]);
    const storage = target.storage();
    for (const [key, data] of files) {
      const stored = await storage.get(key);
      expect(Buffer.concat(await stored!.stream.toArray()).equals(data), key).toBe(true);
    }
    expect(await target.store.list()).toEqual(await source.store.list());
  });

  it("restore refuses a data directory or bucket that is not empty, and a damaged archive, writing nothing", async () => {
    const source = await newSite(kind);
    await migrateToLatest((await open(source.dataDir)).db);
    await storeFiles(source.storage());
    const archive = path.join(tempDir(), "upskill.zip");
    await createBackup(source.config, archive);

    const busy = await newSite(kind);
    fs.mkdirSync(busy.dataDir);
    fs.writeFileSync(path.join(busy.dataDir, "notes.txt"), "mine");
    await expect(restoreBackup(busy.config, archive)).rejects.toThrow(
      `DATA_DIR ${busy.dataDir} is not empty: restore only into an empty data directory.`,
    );
    expect(fs.readdirSync(busy.dataDir)).toEqual(["notes.txt"]);

    if (kind.kind === "s3") {
      const filled = await newSite(kind);
      await filled.storage().put("photos/someone", Buffer.from("x"));
      await expect(restoreBackup(filled.config, archive)).rejects.toThrow(
        "the bucket of STORAGE_URL already holds files: restore only into an empty one.",
      );
      expect(fs.existsSync(filled.dataDir)).toBe(false);
    }

    // One byte of a stored file changed (files are stored uncompressed, so it is found as is).
    const bytes = fs.readFileSync(archive);
    const at = bytes.indexOf("certificate");
    bytes[at] = bytes[at]! ^ 0xff;
    const damaged = path.join(path.dirname(archive), "damaged.zip");
    fs.writeFileSync(damaged, bytes);
    const target = await newSite(kind);
    const refusal = await restoreBackup(target.config, damaged).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).toMatch(
      /^the archive is damaged: uploads\/documents\/[0-9a-f]+\.pdf does not match its SHA-256 in the manifest\. Nothing was restored\.$/,
    );
    expect(fs.existsSync(target.dataDir)).toBe(false);
    expect(await target.store.list()).toEqual([]);

    fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 100));
    await expect(restoreBackup(target.config, damaged)).rejects.toThrow(/is not a readable backup archive/);
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe("backup and restore [postgres]", () => {
  it.skipIf(!postgresUrl)("copy the stored files and the row counts, and leave the database to pg_dump", async () => {
    const schema = `backup_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const handle = await openDatabase({ databaseUrl: postgresUrl!, dataDir: os.tmpdir(), schema });
    cleanups.push(async () => {
      await handle.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });
    await migrateToLatest(handle.db);
    await insertUser(handle.db, { name: "Meera", email: "meera@example.com" });
    const url = new URL(postgresUrl!);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const env = { DATABASE_URL: url.toString() };
    const source = await newSite(disk, env);
    const files = await storeFiles(source.storage());

    const archive = path.join(tempDir(), "upskill.zip");
    const { manifest } = await createBackup(source.config, archive);
    expect(manifest.database).toMatchObject({ dialect: "postgres", migration: lastMigration, tables: { user: 1 } });
    expect(manifest.entries.map((entry) => entry.name).sort()).toEqual(
      [...files.keys()].map((key) => `uploads/${key}`).sort(),
    );

    const onSqlite = await newSite(disk);
    await expect(restoreBackup(onSqlite.config, archive)).rejects.toThrow(/taken on PostgreSQL and holds no database/);
    const target = await newSite(disk, env);
    await restoreBackup(target.config, archive);
    expect(await target.store.list()).toEqual(await source.store.list());
    expect(fs.existsSync(path.join(target.dataDir, "upskill.sqlite"))).toBe(false);
  });
});
