// Rasterises the landing page's hero illustration (app/site/landing/hero/hero.svg) into the
// AVIF and WebP sizes the page's <picture> lists. Run after changing the SVG:
//   node scripts/hero-images.ts
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { hero, heroSrc } from "../app/site/landing/hero/hero-image.ts";

const root = path.resolve(import.meta.dirname, "..");
const svg = fs.readFileSync(path.join(root, "app/site/landing/hero/hero.svg"));
fs.mkdirSync(path.join(root, "public/hero"), { recursive: true });
for (const width of hero.widths) {
  // Rendered at twice the size and scaled down, so thin strokes stay crisp.
  const base = sharp(svg, { density: 144 }).resize({ width });
  for (const format of hero.formats) {
    const file = path.join(root, "public", heroSrc(width, format));
    const image =
      format === "avif" ? base.clone().avif({ quality: 55, effort: 6 }) : base.clone().webp({ quality: 78 });
    await image.toFile(file);
    console.log(`${path.relative(root, file)}: ${fs.statSync(file).size} bytes`);
  }
}
