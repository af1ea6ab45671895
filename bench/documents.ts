// Issuing documents and verifying them. First, N certificates issued through the function the
// staff intents use (issueDocuments: PDF with QR code and signature image, stored, recorded in
// the database), timed in this one process (one core): documents per second and the PDFs'
// sizes. Then the built server on that data: the verify page under wrk (64 connections), once
// for one document and once rotating through all of them, beside the landing page of the same run.
// Run: npm run bench:documents [-- --documents 1000]   (needs a build: npm run build, and wrk;
// BENCH_SMOKE=1 for a seconds-long check). Targets: ≥ 20 documents a second, ≤ 150 KB per PDF.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import "../scripts/app-module-hooks.ts";
import { startServerProcess } from "../tests/support/server-process.ts";
import { have, wrk } from "./wrk.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({
  options: { documents: { type: "string", default: smoke ? "20" : "1000" } },
});
const documentCount = Number(values.documents);
const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10));
const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 8 : 64));
/** As the bulk issuing job works: a batch's PDFs made, then recorded in one transaction. */
const batchSize = 100;

if (!have("wrk")) throw new Error("bench:documents needs wrk: apt-get install -y wrk");

const { loadConfig } = await import("~/config/config.server");
const { openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { createLogger } = await import("~/logging/logger.server");
const { InProcessBus } = await import("~/realtime/bus.server");
const { buildServices, provideServices } = await import("~/platform/services.server");
const { seedLearners } = await import("~/staff/seed.server");
const { isLearner } = await import("~/learners/learner-filter.server");
const { personName } = await import("~/accounts/person-name");
const { saveDocumentSettings } = await import("~/documents/settings.server");
const { issueDocuments } = await import("~/documents/documents.server");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-bench-documents-"));
const appUrl = "http://127.0.0.1:3999";

/** A signature as an admin would upload it: dark strokes on a transparent background. */
function signaturePng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="300">
    <path d="M40 220 C 160 40, 260 280, 380 120 S 560 60, 620 200 S 780 260, 860 90" stroke="#0f172a" stroke-width="9" fill="none"/>
    <path d="M120 250 L 760 240" stroke="#0f172a" stroke-width="4" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function issue(): Promise<{ codes: string[]; perSecond: number; sizes: number[] }> {
  const handle = await openDatabase({ dataDir });
  await migrateToLatest(handle.db);
  const config = loadConfig({ APP_URL: appUrl, DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000" });
  const logger = createLogger("silent");
  const services = await buildServices({ config, logger, database: handle, bus: new InProcessBus(logger) });
  provideServices(services);
  try {
    await seedLearners(handle.db, { learners: documentCount });
    const learners = await handle.db
      .selectFrom("user")
      .select(["id", "username", "name", "email"])
      .where(isLearner)
      .orderBy("id")
      .limit(documentCount)
      .execute();
    const actor = { id: learners[0]!.id, name: "bench", role: "admin" };
    const saved = await saveDocumentSettings({ db: handle.db, storage: services.storage }, actor, {
      signatoryName: "Asha Kulkarni",
      signatoryTitle: "Director of Training",
      removeSignature: false,
      image: await signaturePng(),
    });
    if (!saved.ok) throw new Error(saved.message);
    const deps = {
      db: handle.db,
      bus: services.bus,
      storage: services.storage,
      mailer: services.mailer,
      logger,
      config,
    };
    const content = {
      kind: "certificate" as const,
      title: "Full Stack Web Development",
      description: "Twelve weeks of JavaScript, React, Node.js and SQL, with a project reviewed by mentors.",
      issuedOn: "2026-03-31",
      validUntil: null,
      hours: 120,
      startDate: null,
      location: null,
      pay: null,
      replyBy: null,
      body: null,
    };
    const codes: string[] = [];
    const started = performance.now();
    for (let i = 0; i < learners.length; i += batchSize) {
      const holders = learners
        .slice(i, i + batchSize)
        .map((learner) => ({ id: learner.id, name: personName(learner), email: learner.email }));
      const { rows } = await issueDocuments(deps, holders, content, actor.id);
      codes.push(...rows.map((row) => row.code));
    }
    const elapsed = (performance.now() - started) / 1000;
    // The emails (each with its PDF) are queued with the documents and sent by the mail worker.
    const keys = await handle.db.selectFrom("document").select("storageKey").execute();
    const sizes = await Promise.all(
      keys.map(async ({ storageKey }) => (await services.storage.stat(storageKey))!.size),
    );
    return { codes, perSecond: codes.length / elapsed, sizes };
  } finally {
    await services.close();
  }
}

const row = (name: string, f: { rps: number; p99: number }) =>
  `${name.padEnd(48)} ${f.rps.toFixed(0).padStart(9)} req/s   p99 ${f.p99.toFixed(2).padStart(7)} ms`;

try {
  const issued = await issue();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const sorted = [...issued.sizes].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, size) => sum + size, 0) / sorted.length;
  console.log(`issued ${issued.codes.length} certificates (PDF, QR code, signature image, stored, recorded)`);
  console.log(`  ${issued.perSecond.toFixed(1)} documents/second on one process  (target ≥ 20)`);
  console.log(`  PDF size: mean ${kb(mean)}, max ${kb(sorted.at(-1)!)}  (target ≤ 150 KB)`);

  const server = await startServerProcess(
    { NODE_ENV: "production", LOG_LEVEL: "info", DATA_DIR: dataDir },
    { keepLogs: false },
  );
  try {
    const accept = { "accept-encoding": "gzip" };
    const paths = issued.codes.map((code) => `/verify/${code}`);
    const first = await fetch(`${server.url}${paths[0]}`);
    if (first.status !== 200 || !(await first.text()).includes("Valid"))
      throw new Error("the verify page is not Valid");
    // Warm-up: the page cache, the documents cache and the JIT.
    await wrk(`${server.url}/`, { connections: 8, seconds: smoke ? 1 : 2, headers: accept });
    await wrk(`${server.url}/`, { connections: 8, seconds: smoke ? 1 : 2, headers: accept, paths });
    const load = { connections, seconds, headers: accept };
    const landing = await wrk(`${server.url}/`, load);
    const one = await wrk(`${server.url}${paths[0]}`, load);
    const all = await wrk(`${server.url}/`, { ...load, paths });
    console.log("");
    console.log(`wrk, 1 thread, ${connections} connections, ${seconds} s each (request logs on)`);
    console.log(row("landing page / (anonymous, cached)", landing));
    // One document: its HTML comes from the rendered-page cache. Rotating through more pages than
    // that cache holds (32 MB, about 900 verify pages) renders each one: the cold figure.
    console.log(row("verify page, one document", one));
    console.log(row(`verify page, rotating ${paths.length} documents`, all));
    console.log(`ratio verify/landing: ${(all.rps / landing.rps).toFixed(2)}×`);
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
