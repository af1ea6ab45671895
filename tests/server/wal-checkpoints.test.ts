import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Checkpoints, type DatabaseHandle } from "~/db/database.server";
import { walCheckpointsEvery } from "~/db/wal-checkpoints.server";

// Who copies SQLite's write-ahead log back into the file: each commit that finds the log past
// 1,000 pages (SQLite's way, one process), or the primary of several, on a timer, so that no
// request of a worker waits for it. Seen from the files: a page the log holds is in the
// database file once checkpointed.

const pageBytes = 4096;
const opened: DatabaseHandle[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** 3,000 pages written in 30 commits, by a server process that checkpoints as told. */
async function writeThreeThousandPages(checkpoints: Checkpoints) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-wal-"));
  const database = await openDatabase({ dataDir, checkpoints });
  opened.push(database);
  await sql`create table filler (bytes blob)`.execute(database.db);
  for (let commit = 0; commit < 30; commit++) {
    await database.db.transaction().execute(async (trx) => {
      for (let row = 0; row < 100; row++) await sql`insert into filler values (zeroblob(${pageBytes}))`.execute(trx);
    });
  }
  const file = path.join(dataDir, "upskill.sqlite");
  return { file, fileBytes: () => fs.statSync(file).size, logBytes: () => fs.statSync(`${file}-wal`).size };
}

describe("SQLite's write-ahead log", () => {
  it("is copied back by the commits of a single process, which keeps it short", async () => {
    const { fileBytes, logBytes } = await writeThreeThousandPages("in-commits");
    expect(fileBytes()).toBeGreaterThan(2_000 * pageBytes);
    expect(logBytes()).toBeLessThan(1_500 * pageBytes);
  });

  it("is left to the primary by a worker's commits, and the primary's timer copies it back", async () => {
    const { file, fileBytes, logBytes } = await writeThreeThousandPages("by-primary");
    expect(fileBytes()).toBeLessThan(100 * pageBytes);
    expect(logBytes()).toBeGreaterThan(3_000 * pageBytes);

    const errors: unknown[] = [];
    const checkpoints = await walCheckpointsEvery(file, 20, (error) => errors.push(error));
    try {
      await expect.poll(fileBytes, { timeout: 5_000 }).toBeGreaterThan(3_000 * pageBytes);
    } finally {
      checkpoints.stop();
    }
    expect(errors).toEqual([]);
  });
});
