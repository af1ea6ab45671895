// Whether the build is current: a fingerprint of everything the build reads (names, sizes and
// modification times), kept beside the build. `npm start` (server.js) builds again only when it
// differs; `npm run build` ends by writing it, so a build made before starting (a deployment,
// where the service may not write to its own folder) is served as it is.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const inputs = [
  "app",
  "server",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  "scripts/precompress.ts",
];

/** The fingerprint of the build's inputs under the project folder `root`. */
export function sourceStamp(root) {
  const hash = createHash("sha256");
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

/** Where the fingerprint of the build in `buildDir` is kept. */
export function stampFileOf(root, buildDir = "build") {
  return path.join(root, buildDir, ".source-stamp");
}

// `node scripts/build-stamp.js`, the last step of `npm run build`.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  fs.writeFileSync(stampFileOf(root, process.env.BUILD_DIR ?? "build"), sourceStamp(root));
}
