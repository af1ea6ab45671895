import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".tmp/",
      ".tmp-data-*/",
      "build/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Size: a file or function past these is split by responsibility. Every line counts (blank
  // and comment lines too), as a reader meets them; the schema, the site's copy and migrations
  // are long lists, not logic.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/db/schema.ts", "app/content/site-content.ts", "app/db/migrations/**"],
    rules: {
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
      "max-lines-per-function": ["error", { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  // Temporary: files still over a size limit, each with why it is not split yet. An entry goes
  // as soon as its file fits.
  ...Object.entries({
    "app/placement/PlacementRecords.tsx": "placement's modules are being split by the placement work",
    "app/placement/BatchesPage.tsx": "placement's modules are being split by the placement work",
    "app/placement/seed.server.ts": "placement's modules are being split by the placement work",
    "app/staff/staff-actions.server.ts": "the intent table is going to the features that own each intent (core work)",
  }).map(([file]) => ({ files: [file], rules: { "max-lines": "off", "max-lines-per-function": "off" } })),
  {
    files: ["**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
