import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { logRecords, root, startServerProcess } from "../support/server-process";

/** What `npm start` needs to build and serve, besides node_modules. */
const sources = [
  "app",
  "server",
  "public",
  "scripts",
  "server.js",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

const reactBuildOf = (lines: string[]) => logRecords(lines).find((r) => r.msg === "react build")?.react;

test("npm start serves a build from npm run build as it is, builds again once a source changes, with React's production build unless NODE_ENV says otherwise", async () => {
  test.setTimeout(300_000);
  // A copy of the project with no build, as a fresh clone; the other tests' build is not
  // touched. (The build refuses symlinked sources.)
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-npm-start-"));
  try {
    for (const name of sources) fs.cpSync(path.join(root, name), path.join(project, name), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(project, "node_modules"));
    // server.js always serves ./build, whatever BUILD_DIR the test run uses.
    const env = { BUILD_DIR: "build" };
    const start = (nodeEnv: string) =>
      startServerProcess(
        { ...env, NODE_ENV: nodeEnv },
        { entry: path.join(project, "server.js"), readyWithinMs: 240_000 },
      );
    const built = (lines: string[]) => lines.some((line) => line.startsWith("Building Upskill"));

    // Built first, as a deployment does where the service may not write to its own folder.
    const build = spawnSync("npm", ["run", "build"], {
      cwd: project,
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(build.status, build.stderr).toBe(0);
    // Empty counts as not set: a shell may well export NODE_ENV= .
    const unset = await start("");
    try {
      expect(built(unset.lines)).toBe(false);
      expect((await fetch(`${unset.url}/about`)).status).toBe(200);
      expect(reactBuildOf(unset.lines)).toBe("production");
    } finally {
      await unset.stop();
    }

    const now = new Date();
    fs.utimesSync(path.join(project, "app", "root.tsx"), now, now);
    const development = await start("development");
    try {
      expect(built(development.lines)).toBe(true);
      expect(reactBuildOf(development.lines)).toBe("development");
    } finally {
      await development.stop();
    }
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});

test("npm run dev serves through the same HTTP server: security headers, CSP with a nonce, limits", async () => {
  test.setTimeout(120_000);
  const dev = await startServerProcess(
    { NODE_ENV: "development" },
    { entry: path.join(root, "scripts/dev.ts"), readyWithinMs: 60_000 },
  );
  try {
    const page = await fetch(`${dev.url}/about`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-request-id")).toBeTruthy();
    // Modules straight from the sources, through Vite.
    expect(await page.text()).toContain('href="/app/root.tsx"');
    // The HTTP layer's limits hold in development too.
    const huge = await fetch(`${dev.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: dev.url },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    expect(reactBuildOf(dev.lines)).toBe("development");
  } finally {
    await dev.stop();
  }
});
