// The landing bench's reference for Node itself: node:http answering every request with the
// same bytes and headers Upskill sends for its landing page, from memory, in as many processes
// (node:cluster, as `npm start` runs them). What it leaves out is all Upskill adds: how near
// Upskill comes to this is how much of the gap to nginx is Node's own.
// Run by bench/landing.ts: node bench/plain-node-server.ts <body file> <headers JSON file> <port> <processes>
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";

const [bodyFile, headersFile, port, processes] = process.argv.slice(2);
if (!bodyFile || !headersFile || !port || !processes) {
  throw new Error("usage: plain-node-server.ts <body file> <headers JSON file> <port> <processes>");
}

if (cluster.isPrimary && Number(processes) > 1) {
  for (let i = 0; i < Number(processes); i++) cluster.fork();
} else {
  const body = fs.readFileSync(bodyFile);
  const headers = JSON.parse(fs.readFileSync(headersFile, "utf8")) as Record<string, string>;
  http
    .createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    })
    .listen(Number(port), "127.0.0.1");
}
