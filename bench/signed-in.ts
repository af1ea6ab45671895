// The signed-in learner's two requests under load: the dashboard page (server-rendered) and its
// loader data, at 1 and 100 connections, with wrk (apt-get install -y wrk).
// Run: npm run bench:signed-in   (needs a build: npm run build; BENCH_SMOKE=1 for a seconds-long
// check; BENCH_SECONDS to vary). Absolute numbers on a shared 2-core machine are noisy.
import { startServerProcess } from "../tests/support/server-process.ts";
import { have, wrk } from "./wrk.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10));
// The page, and its data as a client-side navigation or a live update reads it.
const paths = ["/dashboard", "/dashboard.data"];
const connectionCounts = [1, 100];

if (!have("wrk")) throw new Error("bench:signed-in needs wrk: apt-get install -y wrk");

// As `npm start` runs it: production React, one log line per request (read and dropped here).
const server = await startServerProcess(
  { NODE_ENV: "production", LOG_LEVEL: "info", AUTH_RATE_LIMIT: "1000" },
  { keepLogs: false },
);
try {
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({
      username: "Bench Learner",
      phone: "9876543210",
      course: "Python",
      gender: "female",
      email: "bench-learner@example.com",
      password: "bench-password-1",
      confirmPassword: "bench-password-1",
    }),
  });
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const headers = { cookie };
  for (const path of paths) {
    const response = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} for a signed-in learner`);
  }

  console.log(`wrk, 1 thread, ${seconds} s per row; one learner's session`);
  console.log(
    `${"".padEnd(28)}${"conns".padStart(6)}${"req/s".padStart(10)}${"p50".padStart(12)}${"p99".padStart(12)}`,
  );
  for (const path of paths) {
    wrk(`${server.url}${path}`, { connections: 8, seconds: smoke ? 1 : 2, headers }); // warm-up
    for (const connections of connectionCounts) {
      const f = wrk(`${server.url}${path}`, { connections, seconds, headers });
      console.log(
        `${`GET ${path}`.padEnd(28)}${String(connections).padStart(6)}${f.rps.toFixed(0).padStart(10)}` +
          `${`${f.p50.toFixed(2)} ms`.padStart(12)}${`${f.p99.toFixed(2)} ms`.padStart(12)}`,
      );
    }
  }
} finally {
  await server.stop();
}
