// nginx (Debian's nginx-light) answering every request with fixed bytes: the benches' reference
// for what this machine gives a server that does nothing but send them, under the same wrk load.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/server-process.ts";

/** Resolves once `url` answers 200 (a server just spawned); fails after 10 s. */
export async function answering(url: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if ((await fetch(url).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer within 10 s`);
}

/**
 * nginx with `workers` worker processes and no access log, answering every address with `bytes`
 * as text/html (with `headers` added), once it answers.
 */
export async function nginxServing(
  bytes: Buffer,
  options: { workers: number; headers?: Record<string, string> },
): Promise<{ url: string; stop(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-nginx-"));
  fs.writeFileSync(path.join(dir, "page"), bytes);
  fs.chmodSync(dir, 0o755); // nginx's worker runs as an unprivileged user
  const port = await freePort();
  const added = Object.entries(options.headers ?? {})
    .map(([name, value]) => `add_header ${name} "${value}";`)
    .join(" ");
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes ${options.workers}; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:${port};
  location / { root ${dir}; types { } default_type text/html; ${added} try_files /page =404; } } }`,
  );
  const nginx = spawn("nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "ignore" });
  const stop = () => {
    nginx.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await answering(`${url}/`);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
