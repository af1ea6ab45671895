import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { afterWaitingRequests } from "~/http/after-waiting-requests.server";

// A request whose work takes milliseconds starts it only after the requests that arrived with
// it: on a real server, over real sockets. The requests are made to arrive together by holding
// this process's event loop while the client writes them (client and server share the loop).

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const holdTheLoop = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/**
 * Three slow requests (20 ms of work each, which waits for `afterWaitingRequests` first when
 * `deferred`) and then a fast one, all arriving in one turn of the loop; the order they finished in.
 */
async function finishingOrder(deferred: boolean): Promise<string[]> {
  const finished: string[] = [];
  const server = http.createServer(async (req, res) => {
    if (req.url!.startsWith("/slow")) {
      if (deferred) await afterWaitingRequests();
      holdTheLoop(20);
    }
    finished.push(req.url!);
    res.end("ok");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const paths = ["/slow-1", "/slow-2", "/slow-3", "/fast"];
  const connections = await Promise.all(
    paths.map(
      () =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
          sockets.push(socket);
        }),
    ),
  );
  // Connected and accepted on both sides before the requests go.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const answered = connections.map((socket) => new Promise((resolve) => socket.once("data", resolve)));
  paths.forEach((path, i) => connections[i]!.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  // Every request is in the server's socket buffers before the loop reads any of them.
  holdTheLoop(30);
  await Promise.all(answered);
  return finished;
}

describe("afterWaitingRequests", () => {
  it("without it, a fast request that arrived with slow ones waits for one of them at least", async () => {
    // The setup's check: the requests did arrive together, and the slow ones ran first.
    const order = await finishingOrder(false);
    expect(order.indexOf("/fast")).toBeGreaterThan(0);
  });

  it("with it, the fast request is answered before any of the slow ones runs", async () => {
    const order = await finishingOrder(true);
    expect(order[0]).toBe("/fast");
    expect(order).toHaveLength(4);
  });
});
