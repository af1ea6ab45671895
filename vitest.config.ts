import { defineConfig } from "vitest/config";
import "./tests/support/allocation-tuning.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/server/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["tests/support/global-setup.ts"],
  },
});
