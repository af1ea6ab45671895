import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "@playwright/test";
import { startProbeServer, type Account, type ProbeServer } from "../support/probe-server";
import { root, startServerProcess } from "../support/server-process";

// The operator's backup and restore against a running server: `npm run backup` is taken in the
// middle of 200 concurrent writes over HTTP (sign-ups, task links, notices); `npm run restore`
// puts it into a new data directory; that copy passes SQLite's integrity check, holds every write
// the server acknowledged before the backup started (later ones may or may not be there), keeps
// its files private, and a server started on it serves it.

test.setTimeout(120_000);

type Write =
  | { kind: "sign-up"; email: string }
  | { kind: "task-link"; learner: number; link: string }
  | { kind: "send"; staff: number; learner: number; marker: string };

const password = "probe-password-1";

/** `npm run backup|restore -- <file>` as package.json runs it, on this data directory only. */
function operatorCommand(script: "backup" | "restore", file: string, dataDir: string) {
  const child = spawn(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", path.join(root, "scripts", `${script}.ts`), file],
    // Empty counts as not set: SQLite and uploads under DATA_DIR, whatever the test run exports.
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", STORAGE_URL: "" } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

/** Does the write; answers null when the server acknowledged it, else what it answered. */
async function perform(url: string, write: Write, learners: Account[], staff: Account[]): Promise<string | null> {
  const submit = (page: string, cookie: string, fields: Record<string, string>) =>
    fetch(`${url}${page}.data`, {
      method: "POST",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams(fields).toString(),
    });
  let response: Response;
  switch (write.kind) {
    case "sign-up":
      response = await fetch(`${url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { origin: url, "content-type": "application/json" },
        body: JSON.stringify({
          username: "Backup Test",
          phone: "9876543210",
          course: "Python",
          gender: "male",
          email: write.email,
          password,
          confirmPassword: password,
        }),
      });
      break;
    case "task-link":
      response = await submit("/dashboard", learners[write.learner]!.cookie, {
        intent: "add-task-link",
        link: write.link,
      });
      break;
    case "send":
      response = await submit("/staff", staff[write.staff]!.cookie, {
        intent: "send",
        learnerId: learners[write.learner]!.id,
        kind: "notice",
        html: `<p>${write.marker}</p>`,
      });
      break;
  }
  const body = await response.text();
  return response.status === 200 ? null : `${write.kind}: ${response.status} ${body.slice(0, 200)}`;
}

/** Every file and folder under `dir` with its permission bits, as "path mode". */
function modes(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return `${entry.isDirectory() ? "dir" : "file"} ${(fs.statSync(full).mode & 0o777).toString(8)}`;
    })
    .sort();
}

let server: ProbeServer | undefined;
const folders: string[] = [];
test.afterAll(async () => {
  await server?.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test("a backup taken during 200 concurrent writes restores every write acknowledged before it", async () => {
  server = await startProbeServer("sqlite");
  const url = server.url;
  const learners = await Promise.all(Array.from({ length: 10 }, () => server!.signUp("Learner")));
  const staff: Account[] = [];
  for (let i = 0; i < 3; i++) {
    const account = await server.signUp("Staff");
    await server.setRole(account, "admin");
    staff.push(account);
  }
  // A stored file: a learner's resume, through the tus upload.
  const resume = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(20_000, 0x20)]);
  const upload = await fetch(`${url}/api/learner/resume/upload`, {
    method: "POST",
    headers: {
      origin: url,
      cookie: learners[0]!.cookie,
      "tus-resumable": "1.0.0",
      "upload-length": String(resume.length),
      "upload-metadata": `filename ${Buffer.from("cv.pdf").toString("base64")}`,
      "content-type": "application/offset+octet-stream",
    },
    body: new Uint8Array(resume),
  });
  expect(upload.status).toBe(201);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-backup-e2e-"));
  folders.push(work);
  const archive = path.join(work, "upskill.zip");
  const writes = Array.from({ length: 200 }, (_, i): Write => {
    const id = randomUUID();
    if (i % 3 === 0) return { kind: "sign-up", email: `backup-${id}@example.com` };
    if (i % 3 === 1) return { kind: "task-link", learner: i % learners.length, link: `https://example.com/${id}` };
    return { kind: "send", staff: i % staff.length, learner: i % learners.length, marker: id };
  });
  const acknowledged: { write: Write; at: number }[] = [];
  const refused: string[] = [];
  // All in flight together, arriving over some 10 s: the backup (whose own start takes a few
  // seconds on a busy machine) then copies the database while writes keep coming.
  const results = writes.map(async (write, i) => {
    await new Promise((r) => setTimeout(r, i * 50));
    const refusal = await perform(url, write, learners, staff);
    if (refusal) refused.push(refusal);
    else acknowledged.push({ write, at: performance.now() });
  });
  // The backup starts once a quarter of the writes are acknowledged.
  const deadline = Date.now() + 30_000;
  while (acknowledged.length < 50 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  // Monotonic and finer than a millisecond: a write answered just before still counts as before.
  const backupStartedAt = performance.now();
  const backup = await operatorCommand("backup", archive, server.process.dataDir);
  await Promise.all(results);
  expect(backup.code, backup.stderr).toBe(0);
  expect(backup.stdout).toMatch(
    /^Backing up the database at .*upskill\.sqlite\nBackup written to .*upskill\.zip: the database \(\d+ rows in \d+ tables\), 1 stored file \(/,
  );
  expect(refused).toEqual([]);
  const before = acknowledged.filter((a) => a.at < backupStartedAt).map((a) => a.write);
  expect(before.length).toBeGreaterThanOrEqual(50);

  const restoredDir = path.join(work, "restored");
  const restore = await operatorCommand("restore", archive, restoredDir);
  expect(restore.code, restore.stderr).toBe(0);
  expect(restore.stdout).toContain("Start the server with npm start.");

  const inRestored: Write[] = [];
  const db = new DatabaseSync(path.join(restoredDir, "upskill.sqlite"));
  try {
    expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    const column = (text: string) =>
      new Set(
        db
          .prepare(text)
          .all()
          .map((row) => Object.values(row)[0] as string),
      );
    const emails = column(`select email from "user"`);
    const links = column(`select link from task_link`);
    const bodies = [...column(`select body from message`)].join("\n");
    const inCopy = (write: Write) =>
      write.kind === "sign-up"
        ? emails.has(write.email)
        : write.kind === "task-link"
          ? links.has(write.link)
          : bodies.includes(write.marker);
    const missing = before.filter((write) => !inCopy(write));
    expect(missing, "writes acknowledged before the backup, missing from it").toEqual([]);
    // The copy was made in the middle of the writes: some later ones are not in it.
    inRestored.push(...writes.filter(inCopy));
    test.info().annotations.push({
      type: "writes",
      description: `${before.length} acknowledged before the backup started; ${inRestored.length} of ${writes.length} in it`,
    });
    expect(inRestored.length, "every write is in the copy: it was not taken in the middle of them").toBeLessThan(
      writes.length,
    );
    const [stored] = db.prepare(`select "storageKey" as key from resume`).all() as { key: string }[];
    const file = path.join(restoredDir, "uploads", ...stored!.key.split("/"));
    expect(fs.readFileSync(file).equals(resume)).toBe(true);
  } finally {
    db.close();
  }
  // Private: the archive, and every file and folder restored.
  expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
  expect(fs.statSync(restoredDir).mode & 0o777).toBe(0o700);
  expect(new Set(modes(restoredDir))).toEqual(new Set(["dir 700", "file 600"]));

  // Into a data directory that is not empty: one line, a non-zero exit, nothing changed.
  const again = await operatorCommand("restore", archive, restoredDir);
  expect(again.code).toBe(1);
  expect(again.stderr).toBe(
    `Refusing to restore: DATA_DIR ${restoredDir} is not empty: restore only into an empty data directory.\n`,
  );

  // The server started on the restored copy serves it: an old session still works, and an
  // account made during the writes signs in.
  const restored = await startServerProcess({ DATA_DIR: restoredDir, LOG_LEVEL: "warn" });
  try {
    const link = inRestored.find((write) => write.kind === "task-link") as Extract<Write, { kind: "task-link" }>;
    const dashboard = await fetch(`${restored.url}/dashboard.data`, {
      headers: { cookie: learners[link.learner]!.cookie },
    });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(link.link);
    const signUp = inRestored.find((write) => write.kind === "sign-up") as Extract<Write, { kind: "sign-up" }>;
    const signIn = await fetch(`${restored.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: restored.url, "content-type": "application/json" },
      body: JSON.stringify({ email: signUp.email, password }),
    });
    expect(signIn.status).toBe(200);
  } finally {
    await restored.stop();
  }
});
