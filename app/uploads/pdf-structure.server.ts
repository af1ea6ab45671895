/**
 * Whether these bytes are laid out as a PDF, read the way a PDF reader starts: the header; from
 * the end, `startxref` and its offset; at that offset a cross-reference table whose trailer names
 * the catalog (an object this file holds, of type Catalog), or a cross-reference stream naming
 * it. A file that merely begins with `%PDF-` fails. Each step is a bounded window or one linear
 * scan, so a hostile 5 MB upload costs milliseconds (a general PDF parser took minutes on one).
 */
export function isPdfDocument(bytes: Buffer): boolean {
  if (!/^%PDF-[12]\.\d/.test(bytes.toString("latin1", 0, 8))) return false;
  // The end: `startxref`, an offset and `%%EOF`, allowing for a little trailing padding.
  const tailStart = Math.max(0, bytes.length - 2_048);
  const tail = bytes.toString("latin1", tailStart);
  const end = /startxref\s+(\d{1,10})\s+%%EOF/.exec(tail.slice(tail.lastIndexOf("startxref")));
  if (!end) return false;
  const offset = Number(end[1]);
  if (offset < 8 || offset >= bytes.length) return false;

  const window = (from: number, length: number) =>
    bytes.toString("latin1", from, Math.min(bytes.length, from + length));
  const section = window(offset, 4_096);
  if (/^\s*xref\s+\d+\s+\d+\s+\d{10} \d{5} [fn]/.test(section)) {
    const trailerAt = bytes.indexOf("trailer", offset, "latin1");
    if (trailerAt < 0) return false;
    const root = /^trailer\s*<<[\s\S]*?\/Root\s+(\d{1,10})\s+(\d{1,5})\s+R/.exec(window(trailerAt, 4_096));
    return root !== null && isCatalog(bytes, `${root[1]} ${root[2]} obj`);
  }
  // A cross-reference stream (PDF 1.5 on): the catalog may sit compressed in an object stream.
  const streamDictionary = /^\s*\d{1,10}\s+\d{1,5}\s+obj\s*(<<[\s\S]*?)stream\r?\n/.exec(section)?.[1] ?? "";
  return /\/Type\s*\/XRef\b/.test(streamDictionary) && /\/Root\s+\d{1,10}\s+\d{1,5}\s+R\b/.test(streamDictionary);
}

/** Whether the object headed `N G obj` is in the file, not as part of a longer number, and is the catalog. */
function isCatalog(bytes: Buffer, heading: string): boolean {
  // A few occurrences at most: an updated file repeats an object, a hostile one repeats it endlessly.
  let looked = 0;
  for (
    let at = bytes.indexOf(heading, 0, "latin1");
    at >= 0 && looked < 16;
    at = bytes.indexOf(heading, at + 1, "latin1")
  ) {
    if (at > 0 && !/\s/.test(String.fromCharCode(bytes[at - 1]!))) continue;
    looked += 1;
    const body = bytes.toString("latin1", at + heading.length, Math.min(bytes.length, at + heading.length + 2_048));
    if (/^\s*<<[\s\S]*?\/Type\s*\/Catalog\b/.test(body.split("endobj")[0]!)) return true;
  }
  return false;
}
