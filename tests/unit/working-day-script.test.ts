import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { have, wrk } from "../../bench/wrk.ts";
import { workingDayScript } from "../../bench/working-day.ts";

// The working-day rows' writes must change what each learner's pages show: a learner saving the
// same choice again would leave their page as it was, and the render after it would be free.
// wrk runs the row's script against a server that notes each save.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe.skipIf(!have("wrk"))("bench/working-day.ts", () => {
  it("each learner's saves alternate between digest and immediate, in turn over every learner", async () => {
    const saves = new Map<string, string[]>();
    let reads = 0;
    const server = http.createServer((req, res) => {
      if (req.method !== "POST") {
        reads++;
        res.end("read");
        return;
      }
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const writer = req.headers.cookie ?? "";
        const task = new URLSearchParams(body).get("task") ?? "";
        saves.set(writer, [...(saves.get(writer) ?? []), task]);
        res.end("saved");
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const writers = ["w=1", "w=2", "w=3"];
    const script = workingDayScript(
      { label: "test", paths: ["/dashboard"], readers: ["r=1"], writeEvery: 4 },
      writers,
      url,
    );

    // One connection: the requests reach the server in the order the script makes them.
    await wrk(url, { connections: 1, seconds: 1, script });

    expect(reads).toBeGreaterThan(0);
    expect([...saves.keys()].sort()).toEqual(writers);
    for (const writer of writers) {
      const tasks = saves.get(writer)!;
      expect(tasks.length, writer).toBeGreaterThan(2);
      for (let i = 1; i < tasks.length; i++) expect(tasks[i], `${writer}'s save ${i + 1}`).not.toBe(tasks[i - 1]);
    }
  });
});
