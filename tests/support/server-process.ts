import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");
export const serverEntry = path.join(root, process.env.BUILD_DIR ?? "build", "server", "index.js");

/** The Node options `npm start` runs the server with (its script in package.json): measured as served. */
export const startNodeOptions = (
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith("--"));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  dataDir: string;
  /** Every line the server printed so far (stdout and stderr). */
  lines: string[];
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * Starts the built server as its own process, the way `npm start` does after building
 * (`entry`: another script to run instead, such as a copy of server.js, which may build first).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: { keepLogs?: boolean; entry?: string; readyWithinMs?: number; port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "upskill-proc-"));
  const child = spawn(process.execPath, [...startNodeOptions, options.entry ?? serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
  });
  const lines: string[] = [];
  let keep = true;
  const collect = (chunk: Buffer) => {
    if (keep) lines.push(...chunk.toString().split("\n").filter(Boolean));
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyWithinMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${lines.join("\n")}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the caller's back.
      child.kill("SIGKILL");
      throw new Error(`server did not start:\n${lines.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // A benchmark's millions of log lines are read and dropped, as a log shipper would.
  if (options.keepLogs === false) keep = false;
  return {
    url,
    child,
    dataDir,
    lines,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Signs a learner up through the running server's own endpoint (the Origin it accepts is its
 * address) and returns the session cookie.
 */
export async function signUpOverHttp(
  baseUrl: string,
  account: { username: string; email: string; password: string },
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({
      ...account,
      phone: "9876543210",
      course: "Python",
      gender: "female",
      confirmPassword: account.password,
    }),
  });
  if (!response.ok) throw new Error(`sign-up of ${account.email}: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The JSON log lines, parsed. */
export function logRecords(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}
