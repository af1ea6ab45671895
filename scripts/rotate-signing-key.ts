// Makes a new document-signing key and retires the active one, on the configured database:
//   npm run keys:rotate
// Documents signed before keep verifying: a retired key stays published. Every instance signs
// with the new key from its next signature on (they read the active key from the database).
// Runs on Node's own TypeScript support; app-module-hooks.ts lets it load the app's modules.
import "./app-module-hooks.ts";

if (process.argv.length > 2) {
  console.error("Usage: npm run keys:rotate   (no arguments)");
  process.exit(2);
}

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { databaseLocation, openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { rotateSigningKey } = await import("~/documents/signing.server");

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(2);
}

// Said first, so that a wrong DATA_DIR or DATABASE_URL shows before anything is written.
console.log(`Rotating the signing key in the database at ${databaseLocation(config)}`);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, writer: "outside" });
let exitCode = 0;
try {
  await migrateToLatest(database.db);
  const { active, retired } = await rotateSigningKey(database.db);
  console.log(`New signing key: ${active}`);
  console.log(
    retired
      ? `Retired key: ${retired} (still published at ${config.appUrl}/.well-known/jwks.json, so what it signed keeps verifying)`
      : "There was no key before: this is the first one.",
  );
} catch (error) {
  // The message only: a database error never carries key material, but the rows are not printed either.
  console.error(
    `Could not rotate the signing key on ${database.location}: ${error instanceof Error ? error.message : String(error)}`,
  );
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
