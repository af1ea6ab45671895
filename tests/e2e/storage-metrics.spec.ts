import { createHash } from "node:crypto";
import net from "node:net";
import sharp from "sharp";
import * as tus from "tus-js-client";
import { expect, test } from "@playwright/test";
import { startS3Server, type TestS3Server } from "../support/s3-server";
import { logRecords, startServerProcess } from "../support/server-process";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Signs a learner up through the API, as the sign-up form does; returns the session cookie. */
async function signUp(url: string, name: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({
      username: name,
      phone: "9876543210",
      course: "Python",
      gender: "female",
      email: `${name}@example.com`,
      password: "correct-horse-1",
      confirmPassword: "correct-horse-1",
    }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** One sample's value from Prometheus text, by name and exact labels (0 when absent). */
function sample(text: string, line: string): number {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

test.describe("object storage in the built server", () => {
  test("stores resumes (tus) and photos in the bucket, serves them back, and is ready only while the bucket is", async () => {
    let s3: TestS3Server | undefined = await startS3Server();
    const { url: storageUrl } = await s3.newBucketUrl({ prefix: "upskill" });
    const server = await startServerProcess({ STORAGE_URL: storageUrl, NODE_ENV: "production" });
    try {
      // The log names the bucket, never the credentials.
      const storageLine = logRecords(server.lines).find((r) => r.msg === "upload storage");
      expect(storageLine?.storage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/test-\d+-\d+\/upskill$/);
      expect(server.lines.join("\n")).not.toContain("S3RVER");
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({
        status: "ready",
        checks: { database: "up", storage: "up" },
      });

      const cookie = await signUp(server.url, "meera");
      const resume = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(1_300_000, 0x41)]);
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(resume, {
          endpoint: `${server.url}/api/learner/resume/upload`,
          chunkSize: 512 * 1024,
          retryDelays: null,
          metadata: { filename: "cv.pdf", filetype: "application/pdf" },
          headers: { cookie },
          onSuccess: () => resolve(),
          onError: reject,
        }).start();
      });
      const download = await fetch(`${server.url}/api/learner/resume`, { headers: { cookie } });
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(resume));

      const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: "#3a3" } })
        .png()
        .toBuffer();
      const photo = await fetch(`${server.url}/api/learner/photo`, {
        method: "POST",
        headers: { cookie, origin: server.url, "content-type": "image/png" },
        body: new Uint8Array(png),
      });
      expect(photo.status).toBe(200);
      const { photoUrl } = (await photo.json()) as { photoUrl: string };
      const served = await fetch(`${server.url}${photoUrl}`);
      expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/webp"]);

      // The bucket's server goes away: not ready, saying why; alive all the same.
      await s3.close();
      s3 = undefined;
      const notReady = await fetch(`${server.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ status: "not ready", failed: ["storage"] });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.lines.join("\n")).not.toContain("S3RVER");
    } finally {
      expect(await server.stop()).toBe(0);
      await s3?.close();
    }
  });
});

test.describe("readiness and metrics over HTTP", () => {
  test("labels requests by route pattern, counts page-cache hits, and refuses forwarded scrapes", async ({
    request,
  }) => {
    const metrics = async () => (await request.get("/metrics")).text();
    const before = await metrics();
    for (let i = 0; i < 3; i++) expect((await request.get("/")).status()).toBe(200);
    expect((await request.get("/api/learner/photos/0123456789abcdef0123456789abcdef.webp")).status()).toBe(404);
    expect((await request.get("/staff/learners/someone-id", { maxRedirects: 0 })).status()).toBe(302);
    expect((await request.get("/no/such/page")).status()).toBe(404);
    const after = await metrics();

    const delta = (line: string) => sample(after, line) - sample(before, line);
    const count = (route: string, status: number) =>
      `http_request_duration_seconds_count{route="${route}",method="GET",status="${status}"}`;
    expect(delta(count("/", 200))).toBeGreaterThanOrEqual(3);
    expect(delta(count("/api/learner/photos/:name", 404))).toBe(1);
    expect(delta(count("/staff/learners/:id", 302))).toBe(1);
    expect(delta(count("/*", 404))).toBe(1);
    expect(delta('page_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(3);
    // Never the address asked for: the label set stays bounded.
    expect(after).not.toContain("0123456789abcdef");
    expect(after).not.toContain("someone-id");
    expect(after).not.toContain("/no/such/page");

    const forwarded = await request.get("/metrics", { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(forwarded.status()).toBe(404);
    expect((await request.get("/readyz")).status()).toBe(200);
  });

  test("behind TRUST_PROXY, refuses a local scrape that carries the proxy's header, whatever it names", async () => {
    const server = await startServerProcess({ TRUST_PROXY: "x-client-ip" });
    try {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
      for (const address of ["127.0.0.1", "::1", "203.0.113.7"]) {
        const forwarded = await fetch(`${server.url}/metrics`, { headers: { "x-client-ip": address } });
        expect([forwarded.status, await forwarded.text()], address).toEqual([404, "Not found\n"]);
      }
    } finally {
      await server.stop();
    }
  });

  test("asks for the token when METRICS_TOKEN is set", async () => {
    const token = "t0k3n-".repeat(6);
    const server = await startServerProcess({ METRICS_TOKEN: token });
    try {
      const refused = await fetch(`${server.url}/metrics`);
      expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="metrics"']);
      const allowed = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain("# TYPE http_request_duration_seconds histogram");
      expect(server.lines.join("\n")).not.toContain(token);
    } finally {
      await server.stop();
    }
  });

  test("readyz answers 503 once SIGTERM arrived, while requests in flight finish", async () => {
    const server = await startServerProcess();
    const port = Number(new URL(server.url).port);
    // A request in flight (its body still arriving) keeps the connection, and the server, going.
    const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    let reply = "";
    socket.on("data", (chunk) => (reply += chunk.toString()));
    socket.write(
      `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    // The rest of the body, and a readiness check behind it on the same connection.
    socket.write(body.slice(10) + `GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    await new Promise((r) => socket.once("close", r));
    const answers = reply.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1.1 (200|401|403|429)/);
    expect(answers[1]).toMatch(/^HTTP\/1.1 503/);
    expect(answers[1]).toContain('{"status":"shutting down"}');
    expect(await server.exited).toBe(0);
  });
});
