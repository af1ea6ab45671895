import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import sharp from "sharp";
import { RouterContextProvider } from "react-router";
import { afterEach, beforeEach, expect, it } from "vitest";
import { socketAddressContext } from "~/http/request-context";
import { countDocumentsIssued, observeRequest } from "~/metrics/metrics.server";
import { provideServices, type Services } from "~/platform/services.server";
import * as metricsRoute from "~/routes/metrics";
import * as readyzRoute from "~/routes/readyz";
import { replaceResume } from "~/uploads/resumes.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { describeEachStorage } from "../support/storages";
import { appUrl, createHarness, samples, type Harness, type Learner } from "../support/test-app";

/** One sample's value from Prometheus text, by name and labels (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(",") : [];
    if (wanted.every((label) => have.includes(label))) return Number(match[3]);
  }
  return 0;
}

async function readyz() {
  const response = await readyzRoute.loader();
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** /metrics as asked over a socket from this address, with these headers. */
async function scrape(address: string, headers: Record<string, string> = {}) {
  const context = new RouterContextProvider();
  context.set(socketAddressContext, address);
  const request = new Request(`${appUrl}/metrics`, { headers });
  const response = await metricsRoute.loader({ request, context, params: {} } as never);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describeEachStorage("readiness and metrics", (storage) =>
  describeEachDatabase("database", (database) => {
    let handle: TestDatabaseHandle;
    let h: Harness;
    let learner: Learner;

    beforeEach(async () => {
      handle = await database.open();
      h = await createHarness(handle, { storage });
      learner = await h.signUp("asha");
    });
    afterEach(async () => {
      await h.dispose();
      await handle.dispose();
    });

    const withServices = (change: Partial<Services>) => provideServices({ ...h.services, ...change });

    it("is ready when the database and the store answer, and says which failed otherwise", async () => {
      expect(await readyz()).toEqual({
        status: 200,
        body: { status: "ready", checks: { database: "up", storage: "up" } },
      });

      // The store: a bucket that isn't there, or an uploads directory that went away.
      const broken = await createHarness(handle, {
        storage,
        env: storage.kind === "s3" ? { STORAGE_URL: missingBucketUrl(h) } : {},
      });
      if (storage.kind === "disk") fs.rmSync(path.join(broken.dataDir, "uploads"), { recursive: true });
      expect(await readyz()).toEqual({
        status: 503,
        body: { status: "not ready", failed: ["storage"], checks: { database: "up", storage: "down" } },
      });
      await broken.dispose();

      // The database: a handle that was in use and has been closed.
      const closed = await handle.reopen();
      await closed.db.selectFrom("user").select("id").execute();
      await closed.close();
      withServices({ database: closed });
      expect(await readyz()).toMatchObject({
        status: 503,
        body: { failed: ["database"], checks: { database: "down", storage: "up" } },
      });
    });

    it("answers /metrics from this machine without a token, and 404 to anyone else", async () => {
      const local = await scrape("127.0.0.1");
      expect(local.status).toBe(200);
      expect(local.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      for (const name of [
        "http_request_duration_seconds",
        "upload_bytes_total",
        "documents_issued_total",
        "page_cache_requests_total",
        "event_streams_open",
        "process_resident_memory_bytes",
      ]) {
        expect(local.text).toContain(`# TYPE ${name} `);
      }
      expect((await scrape("::1")).status).toBe(200);
      expect((await scrape("::ffff:127.0.0.1")).status).toBe(200);
      for (const [address, headers] of [
        ["203.0.113.9", {}],
        ["10.0.0.4", {}],
        // A proxy on this machine passing on someone else's request.
        ["127.0.0.1", { "x-forwarded-for": "203.0.113.9" }],
        ["127.0.0.1", { forwarded: "for=203.0.113.9" }],
        ["127.0.0.1", { "x-real-ip": "127.0.0.1" }],
        ["127.0.0.1", { "x-client-ip": "127.0.0.1" }],
      ] as const) {
        const refused = await scrape(address, headers);
        expect([refused.status, refused.text], address).toEqual([404, "Not found\n"]);
      }

      // TRUST_PROXY's header, whatever it is called, even when it names this machine.
      withServices({ config: { ...h.config, trustProxyHeader: "x-upstream-address" } });
      expect((await scrape("127.0.0.1")).status).toBe(200);
      expect((await scrape("127.0.0.1", { "x-upstream-address": "127.0.0.1" })).status).toBe(404);
    });

    it("passes promtool check metrics (Prometheus's own linter) with every metric reporting", async () => {
      // Every kind of series present, so the linter sees each metric's samples and not only its HELP.
      observeRequest("/staff/learners/:id", "GET", 200, 0.02);
      countDocumentsIssued(1);
      const { text } = await scrape("127.0.0.1");
      expect(text).toContain("nodejs_active_handles{");
      const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect(promtool.error, "promtool from Debian's prometheus package").toBeUndefined();
      expect({ status: promtool.status, output: promtool.stdout + promtool.stderr }).toEqual({ status: 0, output: "" });
    });

    it("asks for METRICS_TOKEN as a bearer token when one is set, from anywhere; METRICS=off hides it", async () => {
      const token = "b".repeat(40);
      withServices({ config: { ...h.config, metricsToken: token } });
      for (const authorization of [undefined, "Bearer wrong", `Bearer ${token}x`, `Basic ${token}`, "Bearer "]) {
        const refused = await scrape("127.0.0.1", authorization ? { authorization } : {});
        expect(refused.status, authorization).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
        expect(refused.text).not.toContain("http_request");
      }
      const allowed = await scrape("203.0.113.9", { authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain("# TYPE upload_bytes_total counter");

      withServices({ config: { ...h.config, metrics: false } });
      expect((await scrape("127.0.0.1")).status).toBe(404);
    });

    it("counts stored upload bytes, issued documents, open event streams and (PostgreSQL) the pool", async () => {
      const before = (await scrape("127.0.0.1")).text;
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#08f" } })
        .png()
        .toBuffer();
      const photo = await h.call(learner, "POST", "/api/learner/photo", { body: png });
      expect(photo.status).toBe(200);
      const file = path.join(h.dataDir, "cv.pdf");
      fs.writeFileSync(file, samples.pdf(5000));
      await replaceResume({ ...h.services, db: handle.db }, learner.id, {
        path: file,
        fileName: "cv.pdf",
        contentType: "application/pdf",
      });
      countDocumentsIssued(2);

      const server = await h.listen({ heartbeatMs: 60_000 });
      const stream = await openStream(`${server.url}/api/events`, learner.cookie);
      try {
        const after = (await scrape("127.0.0.1")).text;
        const [photoRow] = await handle.db.selectFrom("profile_photo").select("storageKey").execute();
        const photoSize = (await h.storage.stat(photoRow!.storageKey))!.size;
        const delta = (name: string, labels?: Record<string, string>) =>
          sample(after, name, labels) - sample(before, name, labels);
        expect(delta("upload_bytes_total", { kind: "photo" })).toBe(photoSize);
        expect(delta("upload_bytes_total", { kind: "resume" })).toBe(5000);
        expect(delta("documents_issued_total")).toBe(2);
        expect(sample(after, "event_streams_open")).toBe(1);
        if (database.dialect === "postgres") {
          expect(sample(after, "db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
          expect(after).toMatch(/db_pool_connections\{state="idle"\} \d+/);
          expect(after).toMatch(/db_pool_connections\{state="waiting"\} 0/);
        } else {
          expect(after).not.toMatch(/^db_pool_connections\{/m);
        }
      } finally {
        stream.destroy();
        await server.close();
      }
    });
  }),
);

/** An s3:// URL on the harness's server for a bucket nobody made. */
function missingBucketUrl(h: Harness): string {
  const settings = h.config.storage!;
  const { accessKeyId, secretAccessKey } = settings.credentials!;
  return `s3://${accessKeyId}:${secretAccessKey}@${new URL(settings.endpoint).host}/no-such-bucket?path_style=1&tls=0`;
}

/** Opens the event stream and resolves once its first bytes arrived (it is registered then). */
function openStream(url: string, cookie: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, accept: "text/event-stream" } }, (response) => {
        response.once("data", () => resolve(response));
      })
      .on("error", reject);
  });
}
