// fontkit ships no types; pdfkit uses it to read fonts, and so do we, once (pdf-text.server.ts).
declare module "fontkit" {
  /** A parsed font (pdfkit takes it in place of the file's bytes) and its vertical metrics in font units. */
  export function create(
    buffer: Uint8Array,
    postscriptName?: string,
  ): { unitsPerEm: number; ascent: number; descent: number; lineGap: number };
}
