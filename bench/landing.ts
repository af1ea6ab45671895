// The anonymous landing page under load, beside a small static file from the same server and,
// when Debian's nginx and wrk are installed, beside nginx serving the very same bytes and a plain
// Node server sending them with the same headers (bench/plain-node-server.ts: Node's own share of
// the gap to nginx); then the cost of the request metrics: the landing page with METRICS=on and
// =off, alternating.
// The server runs as `npm start` does: WEB_CONCURRENCY processes (one per core unless set), and
// nginx as many workers; each process's memory is printed idle and after the load, beside a
// single process's. The metrics' cost is measured on a single process.
// Run: npm run bench:landing   (needs a build: npm run build; BENCH_SMOKE=1 for a seconds-long check)
// Figures are ratios taken in one run; absolute numbers on a shared 2-core machine are noisy.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startServerProcess } from "../tests/support/server-process.ts";
import { answering, nginxServing } from "./nginx-reference.ts";
import { have, wrk } from "./wrk.ts";

const smoke = process.env.BENCH_SMOKE === "1";
// As `npm start` (server.js) decides it.
const processes = Number(process.env.WEB_CONCURRENCY || os.availableParallelism());
const duration = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10));
const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 8 : 64));

interface Figures {
  rps: number;
  p99: number;
}

async function cannon(url: string, headers: Record<string, string>): Promise<Figures> {
  const result = await autocannon({ url, connections, duration, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const row = (name: string, f: Figures) =>
  `${name.padEnd(44)} ${f.rps.toFixed(0).padStart(9)} req/s   p99 ${f.p99.toFixed(2).padStart(7)} ms`;

/** Resident memory in MB of a server: its process and its workers (a primary's children). */
function memory(pid: number): number[] {
  const rss = (id: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"))?.[1]) / 1024;
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  return [pid, ...children].map(rss);
}
const megabytes = (figures: number[]) => figures.map((mb) => `${mb.toFixed(0)} MB`).join(", ");

// A single process beside it, for its memory and (with several) its own rounds against nginx.
const single = await startServerProcess(
  { NODE_ENV: "production", LOG_LEVEL: "info", WEB_CONCURRENCY: "1" },
  { keepLogs: false },
);
const accept = { "accept-encoding": "gzip" };
const singleIdle = memory(single.child.pid!);

// As `npm start` runs it (production React, WEB_CONCURRENCY processes); logs stay on (one line
// per request, as in production) and this process reads and drops them.
const server = await startServerProcess(
  { NODE_ENV: "production", LOG_LEVEL: "info", WEB_CONCURRENCY: String(processes) },
  { keepLogs: false },
);
// The first process to listen answers the start's check; give the others their start too.
await new Promise((r) => setTimeout(r, processes > 1 ? 3_000 : 0));
const idle = memory(server.child.pid!);
try {
  // Warm up both paths so the cache is built and the JIT has run.
  await autocannon({ url: `${server.url}/`, connections: 8, duration: smoke ? 1 : 2, headers: accept });
  const landing = await cannon(`${server.url}/`, accept);
  const staticFile = await cannon(`${server.url}/favicon.svg`, accept);
  console.log(
    `WEB_CONCURRENCY=${processes}: ${processes === 1 ? "one server process" : `a primary and ${processes} workers`} on ${os.availableParallelism()} cores (load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")})`,
  );
  console.log(`autocannon, ${connections} connections, ${duration} s each (request logs on)`);
  console.log(row("landing page / (anonymous, gzip)", landing));
  console.log(row("static file /favicon.svg (same server)", staticFile));
  console.log(`ratio landing/static: ${(landing.rps / staticFile.rps).toFixed(2)}×`);

  if (have("nginx") && have("wrk")) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-nginx-"));
    const bytes = Buffer.from(await (await fetch(`${server.url}/`, { headers: accept })).arrayBuffer());
    // fetch decodes; curl hands over the raw gzip bytes the server sends.
    const head = execFileSync(
      "curl",
      ["-s", "-D", "-", "-o", path.join(dir, "index.html.gz"), "-H", "accept-encoding: gzip", `${server.url}/`],
      { encoding: "utf8" },
    );
    const raw = fs.readFileSync(path.join(dir, "index.html.gz"));
    // The headers Upskill sent, for the plain Node server; Node writes Date and the connection's own.
    const sentHeaders = Object.fromEntries(
      head
        .split("\r\n")
        .slice(1)
        .filter((line) => line.includes(":") && !/^(date|connection|keep-alive):/i.test(line))
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
    );
    fs.writeFileSync(path.join(dir, "headers.json"), JSON.stringify(sentHeaders));
    const nginx = await nginxServing(raw, { workers: processes, headers: { "Content-Encoding": "gzip" } });
    const plainPort = await freePort();
    const plain = spawn(
      process.execPath,
      [
        path.join(import.meta.dirname, "plain-node-server.ts"),
        path.join(dir, "index.html.gz"),
        path.join(dir, "headers.json"),
        String(plainPort),
        String(processes),
      ],
      { stdio: "ignore" },
    );
    try {
      await answering(`http://127.0.0.1:${plainPort}/`);
      // Alternating rounds, so that a burst of other work on the machine hits both sides alike;
      // the ratio is the median round's.
      const load = { connections, seconds: duration, headers: accept, threads: processes };
      const rounds: { nginx: Figures; ours: Figures; plain: Figures; single?: Figures }[] = [];
      await autocannon({ url: `${single.url}/`, connections: 8, duration: smoke ? 1 : 2, headers: accept });
      for (let round = 0; round < (smoke ? 1 : 5); round++) {
        const nginxFigures = await wrk(`${nginx.url}/`, load);
        const ours = await wrk(`${server.url}/`, load);
        rounds.push({
          nginx: nginxFigures,
          ours,
          plain: await wrk(`http://127.0.0.1:${plainPort}/`, load),
          single: processes > 1 ? await wrk(`${single.url}/`, load) : undefined,
        });
      }
      console.log("");
      console.log(
        `wrk, ${processes} thread(s), ${connections} connections, ${duration} s each, ${rounds.length} alternating rounds; nginx with ${processes} worker(s), same bytes; Upskill with WEB_CONCURRENCY=${processes}`,
      );
      console.log(`(page: ${bytes.length} bytes decoded, ${raw.length} bytes gzip)`);
      const ratios = rounds.map(({ nginx, ours }) => ours.rps / nginx.rps);
      rounds.forEach(({ nginx, ours, plain, single }, i) => {
        console.log(row(`round ${i + 1}: nginx, the same bytes`, nginx));
        console.log(row(`round ${i + 1}: upskill landing page /`, ours));
        console.log(row(`round ${i + 1}: plain Node, same bytes and headers`, plain));
        if (single) console.log(row(`round ${i + 1}: the same, one process`, single));
      });
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      console.log(
        `ratio upskill/nginx by round: ${ratios.map((r) => `${r.toFixed(2)}×`).join(" ")}; median ${median(ratios).toFixed(2)}×  (target ≥ ${processes > 1 ? "0.6" : "0.5"}×)`,
      );
      const plainRatios = rounds.map(({ nginx, plain }) => plain.rps / nginx.rps);
      console.log(
        `plain Node/nginx by round: ${plainRatios.map((r) => `${r.toFixed(2)}×`).join(" ")}; median ${median(plainRatios).toFixed(2)}×` +
          `; upskill/plain Node: median ${median(rounds.map(({ ours, plain }) => ours.rps / plain.rps)).toFixed(2)}×`,
      );
      if (processes > 1) {
        const singleRatios = rounds.map(({ nginx, single }) => single!.rps / nginx.rps);
        console.log(
          `one process/nginx by round: ${singleRatios.map((r) => `${r.toFixed(2)}×`).join(" ")}; median ${median(singleRatios).toFixed(2)}×`,
        );
      }
      console.log(
        `load average after the rounds: ${os
          .loadavg()
          .map((load) => load.toFixed(1))
          .join(" ")}`,
      );
    } finally {
      nginx.stop();
      plain.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else {
    console.log("nginx comparison skipped: install nginx-light and wrk (apt-get install -y nginx-light wrk)");
  }
  console.log("");
  console.log(
    `memory (RSS), WEB_CONCURRENCY=${processes}, primary first: idle ${megabytes(idle)}; after the load ${megabytes(memory(server.child.pid!))}`,
  );
  console.log(
    `memory (RSS), WEB_CONCURRENCY=1: idle ${megabytes(singleIdle)}; after the load ${megabytes(memory(single.child.pid!))}`,
  );
} finally {
  await server.stop();
  await single.stop();
}

// The request metrics' cost on the cheapest request there is: servers with METRICS=on and =off,
// one at a time and alternating, so that drift on a shared machine hits both alike. Besides
// req/s (which other work on the machine moves a lot), the server's own CPU time per request,
// read from /proc, which it moves much less. wrk when installed (it takes less of the CPU the
// server needs than autocannon does).
const rounds: Record<"on" | "off", { rps: number; cpuUs: number }[]> = { on: [], off: [] };
const useWrk = have("wrk");
/** The process's user + system CPU time in seconds (Linux). */
const cpuSeconds = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
for (const metrics of ["on", "off", "on", "off", "on", "off"] as const) {
  const measured = await startServerProcess(
    { NODE_ENV: "production", LOG_LEVEL: "info", METRICS: metrics, WEB_CONCURRENCY: "1" },
    { keepLogs: false },
  );
  try {
    await autocannon({ url: `${measured.url}/`, connections: 8, duration: smoke ? 1 : 2, headers: accept });
    const cpuBefore = cpuSeconds(measured.child.pid!);
    const figures = useWrk
      ? await wrk(`${measured.url}/`, { connections, seconds: duration, headers: accept })
      : await cannon(`${measured.url}/`, accept);
    const cpu = cpuSeconds(measured.child.pid!) - cpuBefore;
    rounds[metrics].push({ rps: figures.rps, cpuUs: (cpu / (figures.rps * duration)) * 1e6 });
  } finally {
    await measured.stop();
  }
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
console.log("");
console.log(
  `request metrics, landing page /, one server process, ${useWrk ? "wrk 1 thread" : "autocannon"}, ${connections} connections, ${duration} s per round`,
);
for (const metrics of ["on", "off"] as const) {
  const rps = rounds[metrics].map((r) => r.rps.toFixed(0).padStart(6)).join(" ");
  const cpu = rounds[metrics].map((r) => r.cpuUs.toFixed(1).padStart(5)).join(" ");
  console.log(
    `METRICS=${metrics.padEnd(3)} req/s ${rps} (mean ${mean(rounds[metrics].map((r) => r.rps)).toFixed(0)})   ` +
      `server CPU µs/request ${cpu} (mean ${mean(rounds[metrics].map((r) => r.cpuUs)).toFixed(1)})`,
  );
}
const ratio = (pick: (r: { rps: number; cpuUs: number }) => number) =>
  (mean(rounds.on.map(pick)) / mean(rounds.off.map(pick))).toFixed(3);
console.log(`with metrics / without: req/s ${ratio((r) => r.rps)}×, CPU per request ${ratio((r) => r.cpuUs)}×`);
