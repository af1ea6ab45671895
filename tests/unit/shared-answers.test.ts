import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteEpochs } from "~/db/change-versions.server";
import { keptAnswersStage } from "~/http/kept-answers-stage.server";
import type { AnswerSharing, SharedAnswer } from "~/http/shared-answers.server";
import { pageRouter } from "../support/page-router";

// The server processes of one machine hand each other the answers they keep: a process whose
// stamp for a session is the one another process made an answer from answers from memory.
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Two processes' halves of the sharing, joined directly (the primary's relay, without IPC). */
function joinedSharing(): [AnswerSharing, AnswerSharing] {
  const receivers: [((answer: SharedAnswer) => void)[], ((answer: SharedAnswer) => void)[]] = [[], []];
  const half = (own: number): AnswerSharing => ({
    share: (answer) => {
      for (const receive of receivers[1 - own]!) receive(answer);
    },
    onShared: (receive) => {
      receivers[own]!.push(receive);
    },
  });
  return [half(0), half(1)];
}

/** A process: its stage on a server of its own, with the stamp it reads and what it noticed. */
async function serverProcess(
  who: string,
  sharing: AnswerSharing,
  state: { stamp: string; otherProgramWriteSeenAt: number },
) {
  const rendered: string[] = [];
  const stage = keptAnswersStage({
    sessionToken: () => "token",
    keptAnswerStamp: async () => ({ stamp: state.stamp, sessionEndsAt: Date.now() + 3_600_000 }),
    reusableUntil: async (sessionEndsAt) => sessionEndsAt,
    secureHeaders: {},
    router: pageRouter(rendered, who),
    sharing,
    otherProgramWriteSeenAt: () => state.otherProgramWriteSeenAt,
  });
  let count = 0;
  const server = http.createServer((req, res) => {
    void stage.serve(req, res, "token", `${who}-${++count}`, "/dashboard");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const get = () =>
    new Promise<string>((resolve, reject) => {
      const request = http.get({ port, host: "127.0.0.1", path: "/dashboard", agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve(body));
      });
      request.on("error", reject);
    });
  return { rendered, get };
}

describe("kept answers shared between server processes", () => {
  it("a page one process made is answered from memory by the other, with the other answer's own nonce", async () => {
    const [first, second] = joinedSharing();
    const a = await serverProcess("a", first, { stamp: "s1", otherProgramWriteSeenAt: 0 });
    const b = await serverProcess("b", second, { stamp: "s1", otherProgramWriteSeenAt: 0 });

    expect(await a.get()).toBe('<p nonce="nonce-of-a-1">/dashboard by a</p>');
    const fromB = await b.get();
    expect(fromB).toMatch(/^<p nonce="[^"]+">\/dashboard by a<\/p>$/);
    expect(fromB).not.toContain("nonce-of-a-1");
    expect(b.rendered).toEqual([]);
  });

  it("a process whose stamp differs (something the page shows changed) makes its own", async () => {
    const [first, second] = joinedSharing();
    const a = await serverProcess("a", first, { stamp: "s1", otherProgramWriteSeenAt: 0 });
    const b = await serverProcess("b", second, { stamp: "s2", otherProgramWriteSeenAt: 0 });

    await a.get();
    expect(await b.get()).toBe('<p nonce="nonce-of-b-1">/dashboard by b</p>');
    expect(b.rendered).toEqual(["b-1"]);
  });

  it("an answer made from a stamp read before the process noticed another program's write is not kept", async () => {
    const [first, second] = joinedSharing();
    const a = await serverProcess("a", first, { stamp: "s1", otherProgramWriteSeenAt: 0 });
    const b = await serverProcess("b", second, { stamp: "s1", otherProgramWriteSeenAt: Date.now() + 60_000 });

    await a.get();
    expect(await b.get()).toBe('<p nonce="nonce-of-b-1">/dashboard by b</p>');
    expect(b.rendered).toEqual(["b-1"]);
  });
});

describe("SQLite's epoch of other programs' writes", () => {
  const reading = (data: number, server: number, outside: number) => ({ data, server, outside });

  it("moves for a change no process of the server made nor the project's commands, and says when", () => {
    let own = 0;
    const clock = { now: 1_000 };
    const epochs = sqliteEpochs(
      () => own,
      () => clock.now,
    );
    expect(epochs.observe(reading(1, 5, 0))).toBe(0);
    // A sibling's commit raised the server version: explained.
    expect(epochs.observe(reading(2, 6, 0))).toBe(0);
    // This process's own commit (data_version counts other connections' commits only), then a
    // sibling's: the server version moved by one more than this process's commits.
    own++;
    expect(epochs.observe(reading(2, 7, 0))).toBe(0);
    expect(epochs.observe(reading(3, 8, 0))).toBe(0);
    // The project's commands (npm run role, seed) raise the outside version, which stamps carry.
    expect(epochs.observe(reading(4, 8, 1))).toBe(0);
    expect(epochs.movedAt()).toBe(0);
    // The sqlite3 shell: nothing explains it; read again holding the write lock, it moves the epoch.
    expect(epochs.observe(reading(5, 8, 1))).toBeUndefined();
    clock.now = 2_000;
    expect(epochs.settle(reading(5, 8, 1))).toBe(1);
    expect(epochs.movedAt()).toBe(2_000);
    // Settled: the same reading again is explained.
    expect(epochs.observe(reading(5, 8, 1))).toBe(1);
  });

  it("a reading that a sibling's write explains once read holding the lock leaves the epoch", () => {
    const epochs = sqliteEpochs(() => 0);
    expect(epochs.observe(reading(1, 5, 0))).toBe(0);
    // A sibling restarted the write-ahead log inside a write that has not committed yet.
    expect(epochs.observe(reading(2, 5, 0))).toBeUndefined();
    // Read again holding the lock: by then the write committed and raised the server version.
    expect(epochs.settle(reading(3, 6, 0))).toBe(0);
    expect(epochs.movedAt()).toBe(0);
  });
});
