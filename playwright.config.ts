import { defineConfig } from "@playwright/test";
import "./tests/support/allocation-tuning.ts";

const port = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Two workers, several servers and nginx share CI's two cores, on machines whose speed
  // differs by more than two to one: a long story (an admin sending each kind of message, a
  // learner's placement) took 19 s on one and 31 s on another, and an answer can take more than
  // Playwright's default 5 s. These limits only catch a test that hangs; tests that promise a
  // speed measure it themselves.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      // Debian's headless build of the same Chromium: a test's browser contexts and pages cost
      // less than half the CPU of the full browser's (decision 014).
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "shared", testIgnore: /two-instances\.spec\.ts/ },
    // Times live delivery between two instances against a one-second budget. `npm run test:e2e`
    // runs it after the rest, so that another test's browser and servers don't share the two
    // cores with it (under that load the sending instance's own tab once took 957 ms).
    { name: "alone", testMatch: /two-instances\.spec\.ts/ },
  ],
  webServer: {
    // The built server on a throwaway data directory (tests/e2e/start-server.ts).
    command: `node tests/e2e/start-server.ts`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), E2E_PORT: String(port) },
  },
});
