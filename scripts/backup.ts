// Writes one archive of the data (database, stored files, manifest) while the server runs:
//   npm run backup -- <file>
// Same configuration as `npm start` (DATA_DIR, DATABASE_URL, STORAGE_URL). On PostgreSQL the
// database itself is dumped with pg_dump (the README says how). Runs on Node's own TypeScript
// support; app-module-hooks.ts lets it load the app's modules.
import "./app-module-hooks.ts";

const [file, ...extra] = process.argv.slice(2);
if (!file || file.startsWith("-") || extra.length > 0) {
  console.error("Usage: npm run backup -- <file>   (for example upskill-$(date +%F).zip)");
  process.exit(2);
}
// What it writes is private to this user, as the server's data is.
process.umask(0o077);

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { OperationRefused, postgresNote } = await import("~/operations/backup-archive.server");
const { createBackup } = await import("~/operations/backup.server");
const { databaseLocation } = await import("~/db/database.server");

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(2);
}

console.log(`Backing up the database at ${databaseLocation(config)}`);
try {
  const { manifest, missing } = await createBackup(config, file);
  const files = manifest.entries.filter((entry) => entry.name.startsWith("uploads/"));
  const megabytes = (files.reduce((sum, entry) => sum + entry.size, 0) / 1e6).toFixed(1);
  const rows = Object.values(manifest.database.tables).reduce((sum, n) => sum + n, 0);
  const database =
    manifest.database.dialect === "sqlite"
      ? `the database (${rows} rows in ${Object.keys(manifest.database.tables).length} tables)`
      : "the row counts of the PostgreSQL database";
  const stored = `${files.length} stored file${files.length === 1 ? "" : "s"} (${megabytes} MB)`;
  console.log(`Backup written to ${file}: ${database}, ${stored}, manifest.json.`);
  if (missing.length > 0) {
    console.log(
      `Note: ${missing.length} stored files the database names were deleted while the backup ran (replaced meanwhile): ${missing.join(", ")}`,
    );
  }
  if (manifest.database.dialect === "postgres") console.log(postgresNote);
} catch (error) {
  console.error(
    error instanceof OperationRefused
      ? error.message
      : `Backup failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
