// After `react-router build`: writes .br and .gz beside every compressible client file,
// so the server never compresses static files at request time.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const clientDir = path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR ?? "build", "client");
const compressible = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|ico)$/;
let count = 0;
for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (!entry.isFile() || !compressible.test(file)) continue;
  const body = fs.readFileSync(file);
  if (body.length < 256) continue;
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  count++;
}
console.log(`precompressed ${count} client files`);
