// Restores an archive of `npm run backup` into an empty DATA_DIR (and an empty bucket when
// STORAGE_URL is set), after checking every file against the manifest:
//   npm run restore -- <file>
// Same configuration as `npm start`; then `npm start` serves the restored data. Runs on Node's
// own TypeScript support; app-module-hooks.ts lets it load the app's modules.
import "./app-module-hooks.ts";

const [file, ...extra] = process.argv.slice(2);
if (!file || file.startsWith("-") || extra.length > 0) {
  console.error("Usage: npm run restore -- <file>   (into an empty DATA_DIR)");
  process.exit(2);
}
// What it writes is private to this user (files 0600, folders 0700), as the server's data is.
process.umask(0o077);

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { OperationRefused, postgresNote } = await import("~/operations/backup-archive.server");
const { restoreBackup } = await import("~/operations/restore.server");
const { databaseLocation, openDatabase } = await import("~/db/database.server");
const { touchQuery } = await import("~/db/change-versions.server");

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(2);
}

// Said first, so that a wrong DATA_DIR or DATABASE_URL shows before anything is written.
console.log(`Restoring into the database at ${databaseLocation(config)}`);
try {
  const manifest = await restoreBackup(config, file);
  const count = manifest.entries.filter((entry) => entry.name.startsWith("uploads/")).length;
  const files = `${count} stored file${count === 1 ? "" : "s"}`;
  const where = config.storage ? "the bucket of STORAGE_URL" : `${config.dataDir}/uploads`;
  if (manifest.database.dialect === "sqlite") {
    console.log(
      `Restored the backup of ${manifest.createdAt}: the database into ${config.dataDir}, ${files} into ${where}. Start the server with npm start.`,
    );
  } else {
    console.log(`Restored the backup of ${manifest.createdAt}: ${files} into ${where}.`);
    console.log(postgresNote);
    // pg_restore loads the rows before it makes the triggers that would have told a running
    // server: this write from outside does, and its cached public pages follow within seconds.
    // Nothing to tell when the database cannot be reached yet (pg_restore comes later).
    await tellRunningServer(config.databaseUrl!).catch(() => undefined);
  }
} catch (error) {
  console.error(
    error instanceof OperationRefused
      ? `Refusing to restore: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error),
  );
  process.exit(1);
}

async function tellRunningServer(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl, dataDir: "", writer: "outside" });
  try {
    await database.db.executeQuery(touchQuery({}));
  } finally {
    await database.close();
  }
}
