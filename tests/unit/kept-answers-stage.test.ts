import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { keptAnswersStage } from "~/http/kept-answers-stage.server";
import type { KeptAnswerStamp } from "~/db/change-versions.server";
import { pageRouter } from "../support/page-router";

// Requests for an answer being made wait for it. A client that leaves while its stamp is read
// must not leave the next request for the same answer waiting on a render that answers no one.
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Lets the first stamp read finish only when told; the rest at once. */
function heldFirstStamp() {
  let release = () => {};
  let reading = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (reading = resolve));
  let calls = 0;
  const stamp: KeptAnswerStamp = { stamp: "s1", sessionEndsAt: Date.now() + 3_600_000 };
  return {
    started,
    release,
    read: async () => {
      if (++calls === 1) {
        reading();
        await released;
      }
      return stamp;
    },
  };
}

it("answers a request for the same page after the one making it was left by its client", async () => {
  const stamps = heldFirstStamp();
  const rendered: string[] = [];
  const stage = keptAnswersStage({
    sessionToken: () => "token",
    keptAnswerStamp: stamps.read,
    reusableUntil: async (sessionEndsAt) => sessionEndsAt,
    secureHeaders: {},
    router: pageRouter(rendered),
  });
  let count = 0;
  const responses: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    responses.push(res);
    void stage.serve(req, res, "token", `request-${++count}`, "/dashboard");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const get = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.get({ port, host: "127.0.0.1", path: "/dashboard", agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
    });

  // The first client leaves while its stamp is being read.
  const first = http.get({ port, host: "127.0.0.1", path: "/dashboard", agent: false });
  first.on("error", () => {});
  await stamps.started;
  const left = responses[0]!;
  first.destroy();
  if (!left.closed) await new Promise((resolve) => left.once("close", resolve));
  stamps.release();
  await new Promise((resolve) => setTimeout(resolve, 50));

  // The next request for the same page is answered, made by itself.
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 2 s")), 2_000));
  const second = await Promise.race([get(), timeout]);
  expect(second).toEqual({ status: 200, body: '<p nonce="nonce-of-request-2">/dashboard</p>' });
  expect(rendered).toEqual(["request-2"]);
});

it("hands the render the session its stamp was read with, when the database read one", async () => {
  const session = { sessionId: "s", id: "learner", expiresAt: new Date(Date.now() + 3_600_000) };
  const handed: { path: string; session: unknown }[] = [];
  const stageWith = (stamp: KeptAnswerStamp) =>
    keptAnswersStage({
      sessionToken: () => "token",
      keptAnswerStamp: async () => stamp,
      reusableUntil: async (sessionEndsAt) => sessionEndsAt,
      secureHeaders: {},
      router: pageRouter([]),
      sessionReadWithStamp: (request, read) => handed.push({ path: new URL(request.url).pathname, session: read }),
    });
  const server = http.createServer((req, res) => {
    const stamp = { stamp: req.url!, sessionEndsAt: Date.now() + 3_600_000 };
    void stageWith(req.url === "/dashboard" ? { ...stamp, session } : stamp).serve(req, res, "token", "id", req.url!);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  for (const path of ["/dashboard", "/settings"]) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    expect(await response.text()).toContain(path);
  }
  // The second stamp (SQLite's) carried none: its render reads the session itself.
  expect(handed).toEqual([{ path: "/dashboard", session }]);
});
