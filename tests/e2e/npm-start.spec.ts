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

test("npm start serves with React's production build unless NODE_ENV says otherwise", async () => {
  test.setTimeout(300_000);
  // A copy of the project with no build, as a fresh clone: server.js builds it on first start,
  // and never touches the build the other tests serve. (The build refuses symlinked sources.)
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-npm-start-"));
  try {
    for (const name of sources) fs.cpSync(path.join(root, name), path.join(project, name), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(project, "node_modules"));
    // server.js always serves ./build, whatever BUILD_DIR the test run uses.
    const start = (nodeEnv: string) =>
      startServerProcess(
        { NODE_ENV: nodeEnv, BUILD_DIR: "build" },
        { entry: path.join(project, "server.js"), readyWithinMs: 240_000 },
      );

    // Empty counts as not set: a shell may well export NODE_ENV= .
    const unset = await start("");
    try {
      expect((await fetch(`${unset.url}/about`)).status).toBe(200);
      expect(reactBuildOf(unset.lines)).toBe("production");
    } finally {
      await unset.stop();
    }

    const development = await start("development");
    try {
      expect(reactBuildOf(development.lines)).toBe("development");
    } finally {
      await development.stop();
    }
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
