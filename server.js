// `npm start`: checks Node, reads .env, builds when the build is missing or stale, then serves.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `Upskill needs Node.js 22.22 or newer (this is ${process.versions.node}); start it with "npm start", which uses the Node 24 the project installs.`,
  );
  process.exit(1);
}

const root = path.dirname(fileURLToPath(import.meta.url));
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

const stampFile = path.join(root, "build", ".source-stamp");
const serverEntry = path.join(root, "build", "server", "index.js");

/** A fingerprint of everything the build reads: names, sizes and modification times. */
function sourceStamp() {
  const hash = createHash("sha256");
  const inputs = [
    "app",
    "server",
    "public",
    "vite.config.ts",
    "react-router.config.ts",
    "package-lock.json",
    "scripts/precompress.ts",
  ];
  for (const input of inputs) {
    const full = path.join(root, input);
    if (!fs.existsSync(full)) continue;
    const files = fs.statSync(full).isDirectory()
      ? fs
          .readdirSync(full, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [full];
    for (const file of files.sort()) {
      const stat = fs.statSync(file);
      hash.update(`${path.relative(root, file)}:${stat.size}:${stat.mtimeMs}\n`);
    }
  }
  return hash.digest("hex");
}

const stamp = sourceStamp();
const current = fs.existsSync(serverEntry) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp;
if (!current) {
  console.log("Building Upskill (no current build found)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stampFile, stamp);
}

// React picks its build from NODE_ENV when first imported, and its development build renders
// several times slower; `npm start` serves, so it is production unless told otherwise.
process.env.NODE_ENV ||= "production";
const { start } = await import(pathToFileURL(serverEntry).href);
await start();
