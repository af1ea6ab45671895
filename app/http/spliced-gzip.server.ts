import zlib from "node:zlib";

// A kept signed-in page differs from one answer to the next only in its CSP nonce. Compressing
// the whole page for each answer cost about a millisecond of the event loop per request; instead
// its parts (the page cut where the nonce stood) are deflated once (the short ones stored as
// they are), each ending on a byte boundary (a sync flush), and each answer joins them with its
// nonce as an uncompressed block into one gzip member (RFC 1951 §3.2.4, RFC 1952). Only the
// checksum is computed per answer.

const header = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty stored block marked final: the deflate stream ends here. */
const finalBlock = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/**
 * Parts shorter than this go as stored blocks: a page's nonce stands in every script and
 * preload tag (49 parts in the dashboard, most under 100 bytes), and a deflate stream of its own
 * costs tens of microseconds to start, more than such a part saves.
 */
const storedBelow = 1024;

/** Each part as raw deflate data that ends byte-aligned and not final, so that more may follow. */
export function deflateParts(parts: readonly Buffer[]): Buffer[] {
  return parts.map((part) =>
    part.length < storedBelow
      ? storedBlock(part)
      : zlib.deflateRawSync(part, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  );
}

/** A stored (uncompressed) deflate block holding `data` (at most 65,535 bytes). */
function storedBlock(data: Buffer): Buffer {
  const block = Buffer.alloc(5 + data.length);
  block[0] = 0x00;
  block.writeUInt16LE(data.length, 1);
  block.writeUInt16LE(~data.length & 0xffff, 3);
  data.copy(block, 5);
  return block;
}

/**
 * The gzip body of `parts` joined by `slot`, as pieces to write in order, from the parts'
 * deflated forms (`deflateParts`); `slot` is short (a nonce).
 */
export function splicedGzip(parts: readonly Buffer[], deflated: readonly Buffer[], slot: Buffer): Buffer[] {
  if (slot.length > 0xffff) throw new Error("A spliced piece must be shorter than 64 KiB.");
  const between = storedBlock(slot);
  const pieces: Buffer[] = [header];
  let crc = 0;
  let length = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      pieces.push(between);
      crc = zlib.crc32(slot, crc);
      length += slot.length;
    }
    pieces.push(deflated[index]!);
    crc = zlib.crc32(part, crc);
    length += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  pieces.push(finalBlock, trailer);
  return pieces;
}
