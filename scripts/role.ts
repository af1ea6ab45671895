// Sets or clears a user's role on the configured database:
//   npm run role -- <email> <role>      (role: admin, another staff value, or none)
// Runs on Node's own TypeScript support; app-module-hooks.ts lets it load the app's modules.
import "./app-module-hooks.ts";

const [email, roleArgument, ...extra] = process.argv.slice(2);
if (!email || !roleArgument || extra.length > 0) {
  console.error("Usage: npm run role -- <email> <role>\n  role: admin, another staff value, or none to clear it");
  process.exit(2);
}

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { databaseLocation, openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { describeRoleChange, parseRoleArgument, setRole } = await import("~/accounts/roles.server");

let role: string | null;
let config;
try {
  role = parseRoleArgument(roleArgument);
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(2);
}

// Said first, so that a wrong DATA_DIR or DATABASE_URL shows before anything is written.
console.log(`Setting the role in the database at ${databaseLocation(config)}`);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, writer: "outside" });
let exitCode = 0;
try {
  // A fresh database (the server never started on it yet) gets its tables first.
  await migrateToLatest(database.db);
  const change = await setRole(database.db, email, role);
  if (change.status === "unknown-email") {
    console.error(describeRoleChange(change));
    exitCode = 1;
  } else {
    console.log(describeRoleChange(change));
  }
} catch (error) {
  console.error(
    `Could not set the role on ${database.location}: ${error instanceof Error ? error.message : String(error)}`,
  );
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
