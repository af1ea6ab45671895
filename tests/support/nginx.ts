// Debian's nginx for the tests, run as the test's own (unprivileged) user: one process in the
// foreground, its pid, logs and temporary files under a folder of its own.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const nginxBinary = "/usr/sbin/nginx";
export const nginxMissing = "nginx is not installed (apt-get install -y nginx-light): proxy test skipped";

export interface RunningNginx {
  url: string;
  /** nginx's folder: its configuration, logs and temporary files. */
  prefix: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx with `http` (given the folder, returns what goes in the http block: upstreams,
 * servers) listening on `port`, and resolves once `/healthz` answers through it.
 */
export async function startNginx(port: number, http: (prefix: string) => string): Promise<RunningNginx> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-nginx-"));
  const config = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    config,
    `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${http(prefix)}
}
`,
  );
  const child = spawn(nginxBinary, ["-p", prefix, "-c", config], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      const log = fs.readFileSync(path.join(prefix, "error.log"), "utf8");
      await stop();
      throw new Error(`nginx did not start:\n${log}`);
    }
    if ((await fetch(`${url}/healthz`).catch(() => null))?.ok) break;
    if (i > 100) {
      await stop();
      throw new Error("nginx did not answer within 5 s");
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, prefix, stop };
}
