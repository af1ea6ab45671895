import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { have, wrk } from "../../bench/wrk.ts";

// The benches' wrk runs fail rather than report figures that leave something out: a non-2xx
// answer, or a request wrk gave up on after its 2 s (which its latencies leave out, so a stall
// would not show in p99). Against a real server on this machine.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering 200, except the requests `answer` says to answer otherwise. */
async function serve(answer: (n: number, res: http.ServerResponse) => boolean): Promise<string> {
  let n = 0;
  const server = http.createServer((_req, res) => {
    if (answer(++n, res)) return;
    res.end("ok");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** The 50th request answered after 2.5 s, every other at once. */
function fiftiethAnsweredLate(n: number, res: http.ServerResponse): boolean {
  if (n !== 50) return false;
  setTimeout(() => res.end("late"), 2_500);
  return true;
}

describe.skipIf(!have("wrk"))("bench/wrk.ts", () => {
  it("gives the figures of a run where every request was answered", async () => {
    const url = await serve(() => false);
    const figures = await wrk(url, { connections: 2, seconds: 1 });
    expect(figures.late).toBe(0);
    expect(figures.rps).toBeGreaterThan(100);
    expect(figures.p50).toBeGreaterThan(0);
    expect(figures.p99).toBeGreaterThanOrEqual(figures.p50);
  });

  it("fails a run in which a request was answered only after 2 s", async () => {
    // wrk counts such an answer as a timeout, and leaves it out of its latencies.
    const url = await serve(fiftiethAnsweredLate);
    await expect(wrk(url, { connections: 2, seconds: 4 })).rejects.toThrow(/requests unanswered within 2 s/);
  }, 15_000);

  it("counts such answers instead, for a warm-up that allows them", async () => {
    const url = await serve(fiftiethAnsweredLate);
    const figures = await wrk(url, { connections: 2, seconds: 4, lateAllowed: true });
    expect(figures.late).toBe(1);
    expect(figures.rps).toBeGreaterThan(100);
  }, 15_000);

  it("fails a run with an answer that is not 2xx or 3xx", async () => {
    const url = await serve((n, res) => {
      if (n % 10 !== 0) return false;
      res.statusCode = 500;
      res.end("failed");
      return true;
    });
    await expect(wrk(url, { connections: 2, seconds: 1 })).rejects.toThrow(/non-2xx responses/);
  });
});
