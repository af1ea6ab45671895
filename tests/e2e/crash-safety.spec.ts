import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "@playwright/test";
import {
  hasPostgres,
  startProbeServer,
  type Account,
  type ProbeDialect,
  type ProbeServer,
} from "../support/probe-server";

// Nothing a user was told is saved may be lost: the server is killed (SIGKILL, as a crash or a
// power cut) in the middle of 200 concurrent writes, ten times over; after each restart every
// acknowledged write is there, SQLite's integrity check is clean, and no resume is half there.

test.setTimeout(180_000);
const rounds = 10;
const writesPerRound = 200;

type Write =
  | { kind: "sign-up"; email: string }
  | { kind: "task-link"; learner: number; link: string }
  | { kind: "send"; staff: number; marker: string }
  | { kind: "resume"; learner: number; size: number };

const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(size - 9, 0x20)]);

for (const dialect of ["sqlite", "postgres"] as ProbeDialect[]) {
  test.describe(`crash safety [${dialect}]`, () => {
    test.skip(dialect === "postgres" && !hasPostgres, "PostgreSQL pass skipped: TEST_DATABASE_URL is not set");
    let server: ProbeServer;

    test.afterAll(async () => {
      await server?.stop();
    });

    test("every acknowledged write survives SIGKILL mid-flight, ten rounds", async () => {
      server = await startProbeServer(dialect);
      // Enough accounts that the per-person write limits don't refuse the rounds' writes.
      const learners: Account[] = [];
      for (let i = 0; i < 20; i++) learners.push(await server.signUp("Learner"));
      const staff: Account[] = [];
      for (let i = 0; i < 8; i++) {
        const account = await server.signUp("Staff");
        await server.setRole(account, "admin");
        staff.push(account);
      }

      const acknowledged: Write[] = [];
      let attempted = 0;
      for (let round = 0; round < rounds; round++) {
        const writes: Write[] = Array.from({ length: writesPerRound }, (_, i): Write => {
          const id = randomUUID();
          switch (i % 4) {
            case 0:
              return { kind: "sign-up", email: `crash-${id}@example.com` };
            case 1:
              return { kind: "task-link", learner: i % learners.length, link: `https://example.com/${id}` };
            case 2:
              return { kind: "send", staff: i % staff.length, marker: id };
            default:
              return { kind: "resume", learner: i % learners.length, size: 2_000 + (i % 50) * 1_000 };
          }
        });
        attempted += writes.length;
        const url = server.url;
        let answered = 0;
        const results = writes.map((write) =>
          perform(url, write, learners, staff).then(
            (ok) => {
              answered++;
              if (ok) acknowledged.push(write);
            },
            () => {},
          ),
        );
        // Kill it while the writes are still arriving and being written: once the first few are
        // answered (sign-ups hash passwords, so a busy machine takes seconds), at a random moment.
        const deadline = Date.now() + 8_000;
        while (answered < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, Math.random() * 300));
        await server.crash();
        await Promise.all(results);
        await server.restart();
        await checkAcknowledged(server, acknowledged, learners);
      }
      test
        .info()
        .annotations.push({ type: "acknowledged", description: `${acknowledged.length} of ${attempted} writes` });
      // Some writes must have been acknowledged, and some cut off, or the test proved nothing.
      expect(acknowledged.length).toBeGreaterThan(rounds * 5);
      expect(acknowledged.length).toBeLessThan(attempted);

      if (dialect === "sqlite") {
        await server.crash();
        const db = new DatabaseSync(path.join(server.process.dataDir, "upskill.sqlite"));
        try {
          expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
        } finally {
          db.close();
        }
        await server.restart();
      }
    });
  });
}

async function perform(url: string, write: Write, learners: Account[], staff: Account[]): Promise<boolean> {
  const post = (path: string, cookie: string | undefined, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { origin: url, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  // A page's action, as its form submits it.
  const submit = (path: string, cookie: string, fields: Record<string, string>) =>
    fetch(`${url}${path}.data`, {
      method: "POST",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams(fields).toString(),
    });
  switch (write.kind) {
    case "sign-up":
      return (
        (
          await post("/api/auth/sign-up/email", undefined, {
            username: "Crash Test",
            phone: "9876543210",
            course: "Python",
            gender: "male",
            email: write.email,
            password: "crash-password-1",
            confirmPassword: "crash-password-1",
          })
        ).status === 200
      );
    case "task-link":
      return (
        (await submit("/dashboard", learners[write.learner]!.cookie, { intent: "add-task-link", link: write.link }))
          .status === 200
      );
    case "send":
      return (
        (
          await submit("/staff", staff[write.staff]!.cookie, {
            intent: "send",
            learnerId: learners[0]!.id,
            kind: "notice",
            html: `<p>${write.marker}</p>`,
          })
        ).status === 200
      );
    case "resume": {
      const response = await fetch(`${url}/api/learner/resume/upload`, {
        method: "POST",
        headers: {
          origin: url,
          cookie: learners[write.learner]!.cookie,
          "tus-resumable": "1.0.0",
          "upload-length": String(write.size),
          "upload-metadata": `filename ${Buffer.from("cv.pdf").toString("base64")}`,
          "content-type": "application/offset+octet-stream",
        },
        body: new Uint8Array(pdf(write.size)),
      });
      return response.status === 201 && response.headers.get("upload-offset") === String(write.size);
    }
  }
}

async function checkAcknowledged(server: ProbeServer, acknowledged: Write[], learners: Account[]) {
  const missing: string[] = [];
  const emails = new Set((await server.query<{ email: string }>(`select email from "user"`)).map((r) => r.email));
  const links = new Set((await server.query<{ link: string }>(`select link from task_link`)).map((r) => r.link));
  const bodies = (await server.query<{ body: string }>(`select body from message`)).map((r) => r.body).join("\n");
  for (const write of acknowledged) {
    if (write.kind === "sign-up" && !emails.has(write.email)) missing.push(`user ${write.email}`);
    if (write.kind === "task-link" && !links.has(write.link)) missing.push(`task link ${write.link}`);
    if (write.kind === "send" && !bodies.includes(write.marker)) missing.push(`notice ${write.marker}`);
  }
  expect(missing, "acknowledged writes missing after a crash").toEqual([]);

  // A learner told their resume was saved has one; and no resume row points at a missing or
  // partial file (a later upload may have replaced it, but never with half a file).
  const resumes = await server.query<{ learnerId: string; storageKey: string; size: number | string }>(
    `select "learnerId", "storageKey", size from resume`,
  );
  const withResume = new Set(resumes.map((r) => r.learnerId));
  for (const write of acknowledged) {
    if (write.kind === "resume") expect(withResume.has(learners[write.learner]!.id)).toBe(true);
  }
  for (const resume of resumes) {
    const file = path.join(server.process.dataDir, "uploads", ...resume.storageKey.split("/"));
    expect(fs.statSync(file).size, resume.storageKey).toBe(Number(resume.size));
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
  }
}
