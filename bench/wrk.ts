// wrk (Debian's package) from the benches: one run, parsed.
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered only after wrk's 2 s (0 unless the run allowed them: `lateAllowed`). */
  late: number;
}

export function have(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}

const toMs = (value: RegExpMatchArray | null) =>
  Number(value?.[1]) * ({ us: 0.001, ms: 1, s: 1000 }[value?.[2] as "us" | "ms" | "s"] ?? NaN);

/**
 * One wrk run (one thread unless told); throws if any response was not 2xx or 3xx, or came only
 * after wrk's 2 s. With `cookies`, each request carries the next one in turn (many
 * sessions, not one); with `paths`, each request asks for the next path in turn (many pages, not
 * one). Asynchronous, so that this process keeps reading the server's logs meanwhile, as a log
 * shipper would.
 */
export async function wrk(
  url: string,
  options: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    cookies?: string[];
    paths?: string[];
    /** Each request's address made new with a counter (`?n=1`, `?n=2`…): nothing kept serves it. */
    fresh?: boolean;
    /** wrk's threads (1 unless told). */
    threads?: number;
    /** A Lua script of wrk's that makes the requests itself (bench/working-day.ts). */
    script?: string;
    /**
     * Count answers later than 2 s in `late` instead of failing: for a warm-up, which a server
     * just started or just seeded may answer slowly at first, and whose figures nobody reads.
     */
    lateAllowed?: boolean;
  },
): Promise<Figures> {
  const args = [`-t${options.threads ?? 1}`, `-c${options.connections}`, `-d${options.seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script) args.push("-s", options.script);
  else if (options.cookies?.length) args.push("-s", rotatingScript("Cookie", options.cookies, options.fresh));
  else if (options.paths?.length) args.push("-s", rotatingScript("path", options.paths));
  const { stdout: out } = await promisify(execFile)("wrk", [...args, url], { encoding: "utf8" });
  const non2xx = out.match(/Non-2xx or 3xx responses: (\d+)/);
  if (non2xx) throw new Error(`${url}: ${non2xx[1]} non-2xx responses`);
  // wrk leaves an answer that took over 2 s out of its latencies: a stall would not show in p99.
  const late = Number(out.match(/Socket errors: .*timeout (\d+)/)?.[1] ?? 0);
  if (late > 0 && !options.lateAllowed) throw new Error(`${url}: ${late} requests unanswered within 2 s`);
  return {
    late,
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
    p50: toMs(out.match(/50%\s+([\d.]+)(us|ms|s)/)),
    p99: toMs(out.match(/99%\s+([\d.]+)(us|ms|s)/)),
  };
}

/**
 * A wrk script that sends each request with the next value of the list: a cookie, or the path;
 * with `fresh`, the path also gets a query parameter of its own.
 */
function rotatingScript(what: "Cookie" | "path", values: string[], fresh = false): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upskill-wrk-")), "rotate.lua");
  const list = values.map((value) => JSON.stringify(value)).join(",\n  ");
  const freshPath =
    'local p = wrk.path\n  if string.find(p, "?", 1, true) then p = p .. "&n=" .. i .. "-" .. n else p = p .. "?n=" .. i .. "-" .. n end\n  n = n + 1\n  ';
  const send =
    what === "path"
      ? "return wrk.format(nil, values[i])"
      : `wrk.headers["Cookie"] = values[i]\n  ${fresh ? `${freshPath}return wrk.format(nil, p)` : "return wrk.format()"}`;
  fs.writeFileSync(
    file,
    `local values = {\n  ${list}\n}\nlocal i = 0\nlocal n = 0\nrequest = function()\n  i = i % #values + 1\n  ${send}\nend\n`,
  );
  return file;
}
