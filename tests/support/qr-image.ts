import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A document's QR code as a scanner sees it: the first page rendered by poppler (pdftoppm) in
// grey at a given resolution, decoded by zbarimg, and its version measured on the image itself.

export interface ScannedQr {
  /** What zbarimg decoded. */
  text: string;
  /** The QR version (1–40) counted on the image: modules a side = 17 + 4 × version. */
  version: number;
  /** Pixels per module at that resolution. */
  modulePixels: number;
}

interface Grey {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A binary PGM (P5, 8 bits) as `pdftoppm -gray` writes it. */
function readPgm(bytes: Buffer): Grey {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error("not an 8-bit binary PGM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: bytes.subarray(header[0].length, header[0].length + width * height) };
}

interface Finder {
  x: number;
  y: number;
  unit: number;
}

/**
 * The QR code's finder patterns: rows crossing dark, light, dark, light, dark in the ratio
 * 1:1:3:1:1, gathered where several rows agree on the centre.
 */
function findFinders(image: Grey): Finder[] {
  const dark = (x: number, y: number) => image.pixels[y * image.width + x]! < 128;
  const hits: Finder[] = [];
  for (let y = 0; y < image.height; y++) {
    const runs: { start: number; length: number; dark: boolean }[] = [];
    for (let x = 0; x < image.width; x++) {
      const last = runs.at(-1);
      if (last && last.dark === dark(x, y)) last.length++;
      else runs.push({ start: x, length: 1, dark: dark(x, y) });
    }
    for (let i = 0; i + 4 < runs.length; i++) {
      const five = runs.slice(i, i + 5);
      if (!five[0]!.dark) continue;
      const total = five.reduce((sum, run) => sum + run.length, 0);
      const unit = total / 7;
      const fits = [1, 1, 3, 1, 1].every((share, index) => Math.abs(five[index]!.length - share * unit) <= unit * 0.6);
      if (fits && unit >= 1.5) hits.push({ x: five[2]!.start + five[2]!.length / 2, y, unit });
    }
  }
  const groups: Finder[][] = [];
  for (const hit of hits) {
    const group = groups.find((candidate) => {
      const last = candidate.at(-1)!;
      return Math.abs(last.x - hit.x) <= hit.unit && hit.y - last.y <= 1;
    });
    if (group) group.push(hit);
    else groups.push([hit]);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return groups
    .filter((group) => group.length >= 2 * group[0]!.unit)
    .map((group) => ({
      x: mean(group.map((hit) => hit.x)),
      y: mean(group.map((hit) => hit.y)),
      unit: mean(group.map((hit) => hit.unit)),
    }));
}

/**
 * The version, counted on the timing pattern: the row of alternating modules between the two
 * upper finder patterns, three modules below their centres, has (modules a side − 15) / 2
 * dark modules.
 */
function measureVersion(image: Grey): { version: number; modulePixels: number } {
  const finders = findFinders(image);
  for (const topLeft of finders) {
    const topRight = finders.find(
      (other) => other !== topLeft && Math.abs(other.y - topLeft.y) < topLeft.unit && other.x > topLeft.x,
    );
    const bottomLeft = finders.find(
      (other) => other !== topLeft && Math.abs(other.x - topLeft.x) < topLeft.unit && other.y > topLeft.y,
    );
    if (!topRight || !bottomLeft) continue;
    const unit = (topLeft.unit + topRight.unit) / 2;
    const y = Math.round(topLeft.y + 3 * unit);
    let darkModules = 0;
    let wasDark = false;
    for (let x = Math.round(topLeft.x + 4 * unit); x <= Math.round(topRight.x - 4 * unit); x++) {
      const isDark = image.pixels[y * image.width + x]! < 128;
      if (isDark && !wasDark) darkModules++;
      wasDark = isDark;
    }
    const modules = 2 * darkModules + 15;
    return { version: (modules - 17) / 4, modulePixels: (topRight.x - topLeft.x) / (modules - 7) };
  }
  throw new Error(`no QR code's three finder patterns found (${finders.length} candidates)`);
}

/** Renders the PDF's first page at `dpi`, decodes its QR code and measures it. */
export function scanQr(pdf: Buffer, dpi: number): ScannedQr {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-qr-"));
  try {
    fs.writeFileSync(path.join(dir, "document.pdf"), pdf);
    execFileSync(
      "pdftoppm",
      ["-gray", "-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", "document.pdf", "page"],
      {
        cwd: dir,
      },
    );
    const image = path.join(dir, "page.pgm");
    // zbarimg exits 4 when it finds no code; execFileSync throws then, with its output.
    const text = execFileSync("zbarimg", ["--raw", "-q", image], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).replace(/\n$/, "");
    return { text, ...measureVersion(readPgm(fs.readFileSync(image))) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
