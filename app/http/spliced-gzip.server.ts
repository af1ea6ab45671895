import zlib from "node:zlib";

// A kept signed-in page differs from one answer to the next only in its CSP nonce. Compressing
// the whole page for each answer cost about a millisecond of the event loop per request; instead
// its long stretches (the page cut where the nonce stood) are deflated once, each ending on a
// byte boundary (a sync flush), and each answer joins them with the rest (the short stretches
// and its nonce) as uncompressed blocks into one gzip member (RFC 1951 §3.2.4, RFC 1952). Only
// the checksum and those blocks are made per answer.

const header = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty stored block marked final: the deflate stream ends here. */
const finalBlock = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** The most a stored block holds. */
const storedMax = 0xffff;

/** `data` as raw deflate data that ends byte-aligned and not final, so that more may follow. */
export function deflated(data: Buffer): Buffer {
  return zlib.deflateRawSync(data, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

/** `data` as stored (uncompressed) deflate blocks, not final. */
function stored(data: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / storedMax));
  const out = Buffer.allocUnsafe(5 * blocks + data.length);
  let at = 0;
  for (let from = 0; at === 0 || from < data.length; from += storedMax) {
    const length = Math.min(storedMax, data.length - from);
    out[at] = 0x00;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    data.copy(out, at + 5, from, from + length);
    at += 5 + length;
  }
  return out;
}

/**
 * The gzip body of `plain` (this answer's stretches) joined by `slot` (its nonce), as pieces to
 * write in order: each stretch as deflated once (`deflated`, at the same index) or, where none
 * is given, stored.
 */
export function splicedGzip(
  plain: readonly Buffer[],
  deflatedOnce: readonly (Buffer | undefined)[],
  slot: Buffer,
): Buffer[] {
  const between = stored(slot);
  const pieces: Buffer[] = [header];
  let crc = 0;
  let length = 0;
  plain.forEach((stretch, index) => {
    if (index > 0) {
      pieces.push(between);
      crc = zlib.crc32(slot, crc);
      length += slot.length;
    }
    pieces.push(deflatedOnce[index] ?? stored(stretch));
    crc = zlib.crc32(stretch, crc);
    length += stretch.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  pieces.push(finalBlock, trailer);
  return pieces;
}
