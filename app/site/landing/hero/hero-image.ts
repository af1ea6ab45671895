/** The hero illustration's rasters: scripts/hero-images.ts writes them into public/hero/. */
export const hero = {
  width: 1200,
  height: 900,
  widths: [400, 640, 960, 1200],
  formats: ["avif", "webp"],
} as const;

export const heroSrc = (width: number, format: string) => `/hero/hero-${width}.${format}`;

export const heroSrcSet = (format: string) =>
  hero.widths.map((width) => `${heroSrc(width, format)} ${width}w`).join(", ");

/** As wide as the image shows: the column beside the text from 1024 px, the page's width below. */
export const heroSizes = "(min-width: 1024px) 520px, calc(100vw - 2rem)";
