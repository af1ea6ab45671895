// `npm run restore` (scripts/restore.ts): the archive's format is in backup-archive.server.ts.
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import type { Config } from "~/config/config.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { isStorageKey, type UploadStorage } from "~/uploads/storage.server";
import {
  OperationRefused,
  databaseEntry,
  digesting,
  manifestEntry,
  manifestSchema,
  openStorage,
  sqliteFile,
  uploadsFolder,
  type Manifest,
} from "./backup-archive.server";

type ManifestEntry = Manifest["entries"][number];
type Entries = Map<string, yauzl.Entry>;

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => (error ? reject(error) : resolve(zip))),
  );

async function readEntries(zip: yauzl.ZipFile): Promise<Entries> {
  const entries: Entries = new Map();
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

const matches = (actual: { size: number; sha256: string }, expected: ManifestEntry) =>
  actual.size === expected.size && actual.sha256 === expected.sha256;

async function isEmptyDirectory(directory: string): Promise<boolean> {
  try {
    return (await fs.promises.readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/** The archive's manifest, refused unless it lists exactly the archive's entries under names a restore may write. */
async function readManifest(zip: yauzl.ZipFile, entries: Entries, archive: string): Promise<Manifest> {
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
  if (listed.has(databaseEntry) !== (manifest.database.dialect === "sqlite")) {
    throw new OperationRefused(`the archive is damaged: its database entry does not match its manifest.`);
  }
  return manifest;
}

/** Refuses a restore into the wrong kind of database or over data already there. */
async function refuseUnlessRestorableHere(config: Config, manifest: Manifest): Promise<void> {
  const hasDatabase = manifest.database.dialect === "sqlite";
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
}

async function refuseUnlessEmpty(bucket: UploadStorage): Promise<void> {
  const keys = bucket.list()[Symbol.asyncIterator]();
  const first = await keys.next();
  await keys.return?.();
  if (!first.done) {
    throw new OperationRefused("the bucket of STORAGE_URL already holds files: restore only into an empty one.");
  }
}

/** Every entry read through and checked against its size and SHA-256, before anything is written. */
async function refuseDamagedEntries(zip: yauzl.ZipFile, entries: Entries, manifest: Manifest): Promise<void> {
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
}

/** The stored files into `storage`, then the database file into DATA_DIR, under a temporary name until whole. */
async function writeEntries(
  zip: yauzl.ZipFile,
  entries: Entries,
  manifest: Manifest,
  storage: UploadStorage,
  dataDir: string,
): Promise<void> {
  const write = async (expected: ManifestEntry, destination: (source: Readable) => Promise<unknown>) => {
    if (!matches(await readEntry(zip, entries.get(expected.name)!, destination), expected)) {
      throw new Error(`${expected.name} changed while it was restored`);
    }
  };
  for (const expected of manifest.entries) {
    if (expected.name === databaseEntry) continue;
    await write(expected, (source) => storage.put(expected.name.slice(uploadsFolder.length), source));
  }
  const database = manifest.entries.find((entry) => entry.name === databaseEntry);
  if (database) {
    const target = path.join(dataDir, sqliteFile);
    await write(database, (source) =>
      pipeline(source, fs.createWriteStream(`${target}.partial`, { flags: "wx", mode: 0o600 })),
    );
    await fs.promises.rename(`${target}.partial`, target);
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
  let entries: Entries;
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
    const manifest = await readManifest(zip, entries, archive);
    await refuseUnlessRestorableHere(config, manifest);
    if (config.storage) {
      storage = new S3Storage(config.storage);
      await refuseUnlessEmpty(storage);
    }
    await refuseDamagedEntries(zip, entries, manifest);
    try {
      await fs.promises.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
      // On disk, opening it makes DATA_DIR/uploads: only now that the archive is known good.
      storage ??= openStorage(config);
      await writeEntries(zip, entries, manifest, storage, config.dataDir);
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
