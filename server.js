// `npm start`: checks Node, reads .env, builds when the build is missing or stale, then serves.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sourceStamp, stampFileOf } from "./scripts/build-stamp.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `Upskill needs Node.js 22.22 or newer (this is ${process.versions.node}); start it with "npm start", which uses the Node 24 the project installs.`,
  );
  process.exit(1);
}

const root = path.dirname(fileURLToPath(import.meta.url));
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

const stampFile = stampFileOf(root);
const serverEntry = path.join(root, "build", "server", "index.js");

const stamp = sourceStamp(root);
const current = fs.existsSync(serverEntry) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp;
if (!current) {
  console.log("Building Upskill (no current build found)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  // The build wrote the new stamp as its last step.
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// React picks its build from NODE_ENV when first imported, and its development build renders
// several times slower; `npm start` serves, so it is production unless told otherwise.
process.env.NODE_ENV ||= "production";
// One server process per core unless told otherwise (WEB_CONCURRENCY=1: a single process).
process.env.WEB_CONCURRENCY ||= String(os.availableParallelism());
const { start } = await import(pathToFileURL(serverEntry).href);
await start();
