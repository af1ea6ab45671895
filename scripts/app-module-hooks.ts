// Lets a script run the app's TypeScript modules on Node's own type stripping: resolves the ~/
// alias and extensionless imports, and transforms (not just strips) TypeScript, because the
// app uses constructor parameter properties. Import this first; later imports go through it.
import fs from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = path.resolve(import.meta.dirname, "..", "app");

// Scripts see the same configuration as `npm start`, which reads .env too.
const envFile = path.resolve(import.meta.dirname, "..", ".env");
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);

registerHooks({
  resolve(specifier, context, nextResolve) {
    const aliased = specifier.startsWith("~/") ? pathToFileURL(path.join(appDir, specifier.slice(2))).href : specifier;
    const local = aliased.startsWith("file:") || aliased.startsWith(".");
    if (local && context.parentURL?.startsWith("file:")) {
      const exact = fileURLToPath(new URL(aliased, context.parentURL));
      if (!fs.existsSync(exact) || fs.statSync(exact).isDirectory()) {
        for (const suffix of [".ts", ".tsx", "/index.ts"]) {
          const candidate = new URL(aliased + suffix, context.parentURL);
          if (fs.existsSync(fileURLToPath(candidate))) return nextResolve(candidate.href, context);
        }
      }
    }
    return nextResolve(aliased, context);
  },
  load(url, context, nextLoad) {
    if (url.startsWith("file:") && /\.tsx?$/.test(url) && !url.includes("/node_modules/")) {
      const source = fs.readFileSync(fileURLToPath(url), "utf8");
      return { format: "module", source: stripTypeScriptTypes(source, { mode: "transform" }), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
