// Sets or clears a user's role on the configured database:
//   npm run role -- <email> <role>      (role: admin, another staff value, or none)
// Runs on Node's own TypeScript support. The app's modules use the ~/ alias, extensionless
// imports and a TypeScript-only constructor form, so a small in-process loader hook resolves
// and transforms them (no build step, no extra tool).
import fs from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = path.resolve(import.meta.dirname, "..", "app");

registerHooks({
  resolve(specifier, context, nextResolve) {
    const aliased = specifier.startsWith("~/") ? pathToFileURL(path.join(appDir, specifier.slice(2))).href : specifier;
    const local = aliased.startsWith("file:") || aliased.startsWith(".");
    if (local && context.parentURL?.startsWith("file:")) {
      const exact = fileURLToPath(new URL(aliased, context.parentURL));
      if (!fs.existsSync(exact) || fs.statSync(exact).isDirectory()) {
        for (const suffix of [".ts", ".tsx", "/index.ts"]) {
          const candidate = new URL(aliased + suffix, context.parentURL);
          if (fs.existsSync(fileURLToPath(candidate))) return nextResolve(candidate.href, context);
        }
      }
    }
    return nextResolve(aliased, context);
  },
  load(url, context, nextLoad) {
    if (url.startsWith("file:") && /\.tsx?$/.test(url) && !url.includes("/node_modules/")) {
      const source = fs.readFileSync(fileURLToPath(url), "utf8");
      return { format: "module", source: stripTypeScriptTypes(source, { mode: "transform" }), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});

const [email, roleArgument, ...extra] = process.argv.slice(2);
if (!email || !roleArgument || extra.length > 0) {
  console.error("Usage: npm run role -- <email> <role>\n  role: admin, another staff value, or none to clear it");
  process.exit(2);
}

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { openDatabase } = await import("~/db/database.server");
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

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
let exitCode = 0;
try {
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
  console.error("Has the server been started once on this database (it creates the tables)?");
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
