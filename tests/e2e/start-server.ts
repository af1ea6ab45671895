// Starts the built server for Playwright on a fresh data directory, with test-friendly settings.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { dataDirNotePath } from "../support/data-dir-note.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-e2e-"));
process.env.DATA_DIR = dataDir;
// Tests that set up data the UI cannot (a staff role) find the data directory here, by port.
const dataDirNote = dataDirNotePath(process.env.PORT!);
fs.writeFileSync(dataDirNote, dataDir);
process.env.APP_URL ??= `http://127.0.0.1:${process.env.PORT}`;
process.env.HOST ??= "127.0.0.1";
process.env.PAYMENT_URL ??= "https://payments.example.com/upskill-e2e";
process.env.SITE_WHATSAPP ??= "+91 98765 43210";
process.env.LOG_LEVEL ??= "warn";
// The browser tests see the server as `npm start` runs it: production React.
process.env.NODE_ENV ??= "production";
// Every test browses from 127.0.0.1: the per-IP auth limit would soon refuse them all.
// The limits themselves are tested in tests/server/accounts-auth.test.ts.
process.env.AUTH_RATE_LIMIT ??= "1000";
const entry = path.resolve(import.meta.dirname, "..", "..", process.env.BUILD_DIR ?? "build", "server", "index.js");
const { start } = await import(pathToFileURL(entry).href);
await start();
await setSignatory();
process.on("exit", () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dataDirNote, { force: true });
});

/**
 * Who signs documents, as an admin sets it on the settings page: no document is issued until
 * then, and most document tests are about something else. Set after start (the tables exist).
 */
async function setSignatory() {
  const insert = `insert into document_settings (id, "signatoryName", "signatoryTitle", "updatedAt")
    values (1, 'Asha Kulkarni', 'Director', '${new Date().toISOString()}') on conflict (id) do nothing`;
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(insert).finally(() => client.end());
    return;
  }
  const db = new DatabaseSync(path.join(dataDir, "upskill.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec(insert);
  db.close();
}
