// `npm run dev`: the app through its own HTTP server (security headers, CSP, limits, request
// logs) as `npm start` runs it, with Vite in front for modules and hot reload.
import { createServer } from "vite";

process.env.NODE_ENV ??= "development";
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const app = (await vite.ssrLoadModule("/server/app.ts")) as typeof import("../server/app.ts");
await app.startDev({
  loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as never,
  middleware: (req, res, next) => vite.middlewares(req, res, next),
});
