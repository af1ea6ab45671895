import fs from "node:fs";
import path from "node:path";
import type { Logger } from "~/logging/logger.server";

/** A data directory with more entries than this is fixed only in part at start (it would delay it). */
const maxEntriesChecked = 100_000;

/**
 * Makes DATA_DIR private to the server's user: it holds the database (with the auth secret and
 * session tokens), uploads and mail. New files are private through the umask set at start;
 * this creates the directory 0700 and takes group and other permissions away from whatever an
 * older version left readable (0644 files become 0600, 0755 directories 0700). Symbolic links
 * are not followed. Logs what it changed.
 */
export function makeDataDirPrivate(dataDir: string, logger: Logger): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let checked = 0;
  let fixed = 0;
  let failed = 0;
  const pending = [dataDir];
  while (pending.length > 0 && checked < maxEntriesChecked) {
    const current = pending.pop()!;
    checked++;
    try {
      const stat = fs.lstatSync(current);
      if (stat.isSymbolicLink()) continue;
      if ((stat.mode & 0o077) !== 0) {
        fs.chmodSync(current, stat.mode & 0o7700);
        fixed++;
      }
      if (stat.isDirectory()) for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    } catch {
      failed++; // another user's file, or removed meanwhile: reported, not fatal
    }
  }
  const summary = { dataDir, checked, fixed, failed, complete: pending.length === 0 };
  if (fixed > 0 || failed > 0 || pending.length > 0) {
    logger.warn(summary, "data directory: group and other permissions removed");
  } else {
    logger.info(summary, "data directory is private");
  }
}
