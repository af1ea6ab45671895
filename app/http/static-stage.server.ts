import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { pickEncoding, type Encoding } from "./encoding.server";

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
};

interface StaticFile {
  contentType: string;
  cacheControl: string;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

/**
 * The built client files, read into memory once at start (the whole client is a few hundred KB).
 * Files under /assets/ carry a content hash in their name and are cached for a year.
 * The build writes .br and .gz siblings (scripts/precompress.ts), which are used when present.
 */
function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!fs.existsSync(clientDir)) return files;
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (full.endsWith(".br") || full.endsWith(".gz")) continue;
    const urlPath = "/" + path.relative(clientDir, full).split(path.sep).join("/");
    const stat = fs.statSync(full);
    const bodies: StaticFile["bodies"] = { identity: fs.readFileSync(full) };
    if (fs.existsSync(`${full}.br`)) bodies.br = fs.readFileSync(`${full}.br`);
    if (fs.existsSync(`${full}.gz`)) bodies.gzip = fs.readFileSync(`${full}.gz`);
    files.set(urlPath, {
      contentType: contentTypes[path.extname(full).toLowerCase()] ?? "application/octet-stream",
      cacheControl: urlPath.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      bodies,
    });
  }
  return files;
}

/**
 * The first stage: a GET or HEAD for one of the built client files, answered from memory.
 * Returns false, having written nothing, for any other path.
 */
export function staticStage(
  clientDir: string,
): (req: http.IncomingMessage, res: http.ServerResponse, pathname: string, requestId: string) => boolean {
  const files = loadStaticFiles(clientDir);
  return (req, res, pathname, requestId) => {
    const file = files.get(pathname);
    if (!file) return false;
    sendStatic(req, res, file, requestId);
    return true;
  };
}

function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile, requestId: string) {
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  const body = file.bodies[encoding] ?? file.bodies.identity;
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Cache-Control": file.cacheControl,
    ETag: file.etag,
    "X-Content-Type-Options": "nosniff",
    "X-Request-Id": requestId,
    Vary: "Accept-Encoding",
  };
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (body !== file.bodies.identity) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}
