import { createHash } from "node:crypto";
import sharp, { type ResizeOptions, type Sharp } from "sharp";
import type { Db } from "~/db/database.server";
import { sectionLimits, sectionMessages, type Brand, type HeroImage } from "./section-types";

// The logo and the hero picture: checked by their bytes, decoded and re-encoded by sharp (so
// nothing but the picture survives), stored under a name made from the result's hash, and
// served with a year's caching: a new picture is a new address.

export const siteImagePath = "/site-images";

export type ImageRefusal = { ok: false; status: 413 | 415; message: string };

/** PNG, JPEG or WebP by their first bytes, whatever the file's name or type says. */
export function imageFormatOf(bytes: Uint8Array): "png" | "jpeg" | "webp" | null {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (starts(0xff, 0xd8, 0xff)) return "jpeg";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/** Checks an upload before anything decodes it: its size, its kind by bytes, its pixel count. */
async function checkedImage(bytes: Buffer): Promise<{ ok: true; image: Sharp } | ImageRefusal> {
  if (bytes.length > sectionLimits.maxUploadBytes)
    return { ok: false, status: 413, message: sectionMessages.imageTooLarge };
  if (!imageFormatOf(bytes)) return { ok: false, status: 415, message: sectionMessages.notAnImage };
  const image = sharp(bytes, { limitInputPixels: sectionLimits.maxInputPixels, failOn: "error" });
  try {
    // The header alone (nothing decoded yet), read without the limit so an image over it is told so.
    const { width, height, format } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!["png", "jpeg", "webp"].includes(format ?? ""))
      return { ok: false, status: 415, message: sectionMessages.notAnImage };
    if ((width ?? 0) * (height ?? 0) > sectionLimits.maxInputPixels)
      return { ok: false, status: 413, message: sectionMessages.imageTooManyPixels };
  } catch {
    return { ok: false, status: 415, message: sectionMessages.notAnImage };
  }
  return { ok: true, image: image.rotate() };
}

interface Encoded {
  name: string;
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
}

async function encode(image: Sharp, format: "png" | "webp", resize: ResizeOptions): Promise<Encoded> {
  const pipeline = image.clone().resize({ ...resize, withoutEnlargement: true });
  const { data, info } = await (
    format === "png" ? pipeline.png({ compressionLevel: 9, palette: true }) : pipeline.webp({ quality: 80 })
  ).toBuffer({ resolveWithObject: true });
  const hash = createHash("sha256").update(data).digest("base64url").slice(0, 32);
  return { name: `${hash}.${format}`, contentType: `image/${format}`, width: info.width, height: info.height, data };
}

async function store(db: Db, images: Encoded[]): Promise<void> {
  const createdAt = new Date().toISOString();
  for (const image of images) {
    await db
      .insertInto("site_image")
      .values({
        name: image.name,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        data: image.data.toString("base64"),
        createdAt,
      })
      .onConflict((conflict) => conflict.column("name").doNothing())
      .execute();
  }
}

const src = (name: string) => `${siteImagePath}/${name}`;

/** The header shows the logo 36 px tall; kept at three times that, at most 4:1 wide. */
const logoBox = { width: 432, height: 108, fit: "inside" } as const;
export const logoHeight = 36;

/** A logo upload, re-encoded to WebP (pages) and PNG (PDFs, mail) and stored. */
export async function storeLogo(
  db: Db,
  bytes: Buffer,
): Promise<{ ok: true; logo: NonNullable<Brand["logo"]> } | ImageRefusal> {
  const checked = await checkedImage(bytes);
  if (!checked.ok) return checked;
  try {
    const [webp, png] = await Promise.all([
      encode(checked.image, "webp", logoBox),
      encode(checked.image, "png", logoBox),
    ]);
    await store(db, [webp, png]);
    const width = Math.max(1, Math.round((logoHeight * webp.width) / webp.height));
    return { ok: true, logo: { src: src(webp.name), width, height: logoHeight, png: src(png.name) } };
  } catch {
    return { ok: false, status: 415, message: sectionMessages.notAnImage };
  }
}

const heroWidths = [480, 960, 1440] as const;

/** A hero picture upload, re-encoded to WebP at three widths and stored. */
export async function storeHeroImage(db: Db, bytes: Buffer): Promise<{ ok: true; image: HeroImage } | ImageRefusal> {
  const checked = await checkedImage(bytes);
  if (!checked.ok) return checked;
  try {
    const sizes = await Promise.all(
      heroWidths.map((width) => encode(checked.image, "webp", { width, height: width, fit: "inside" })),
    );
    await store(db, sizes);
    // Sizes never enlarged can repeat: each width once.
    const distinct = sizes.filter((size, index) => sizes.findIndex((other) => other.width === size.width) === index);
    const middle = distinct[Math.min(1, distinct.length - 1)]!;
    return {
      ok: true,
      image: {
        kind: "custom",
        width: middle.width,
        height: middle.height,
        src: src(middle.name),
        srcSet: distinct.map((size) => `${src(size.name)} ${size.width}w`).join(", "),
      },
    };
  } catch {
    return { ok: false, status: 415, message: sectionMessages.notAnImage };
  }
}

/** GET /site-images/:name: the stored image, cacheable for a year by anyone. */
export async function siteImageResponse(db: Db, name: string | undefined): Promise<Response> {
  const row =
    name && /^[\w-]{1,64}\.(png|webp)$/.test(name)
      ? await db.selectFrom("site_image").select(["contentType", "data"]).where("name", "=", name).executeTakeFirst()
      : undefined;
  if (!row)
    return new Response("There is no image at this address.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const body = Buffer.from(row.data, "base64");
  return new Response(body, {
    headers: {
      "Content-Type": row.contentType,
      "Content-Length": String(body.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
