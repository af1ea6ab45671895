// fontkit ships no types; pdfkit uses it to read fonts, and so do we, once (pdf.server.ts).
declare module "fontkit" {
  /** A parsed font; pdfkit takes it in place of the file's bytes. */
  export function create(buffer: Uint8Array, postscriptName?: string): object;
}
