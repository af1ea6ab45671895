import type { ResumeExtension } from "./resume-types";

/** A file's bytes by position: a local file, or an object in a bucket (ranged reads). */
export interface ByteSource {
  size: number;
  /** Bytes [position, position + length), fewer at the end. */
  read(position: number, length: number): Promise<Buffer>;
}

const pdf = Buffer.from("%PDF-", "latin1");
const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * True when the file's bytes are what its extension claims: PDF's `%PDF-`, Word 97's OLE2
 * header, or a zip archive holding a `word/` part (a .docx; a renamed .xlsx or plain zip is not).
 */
export async function hasResumeSignature(file: ByteSource, extension: ResumeExtension): Promise<boolean> {
  const head = await file.read(0, 8);
  switch (extension) {
    case ".pdf":
      return head.subarray(0, pdf.length).equals(pdf);
    case ".doc":
      return head.equals(ole2);
    case ".docx":
      return head.subarray(0, 4).equals(zip) && (await zipHasWordPart(file));
  }
}

/** Reads the zip's central directory (found through its end record) and looks for word/ names. */
async function zipHasWordPart(file: ByteSource): Promise<boolean> {
  const { size } = file;
  const tailSize = Math.min(size, 65_557);
  const tail = await file.read(size - tailSize, tailSize);
  let end = -1;
  for (let i = tailSize - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end === -1) return false;
  const entries = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset + directorySize > size || directorySize > 16 * 1024 * 1024) return false;
  const directory = await file.read(directoryOffset, directorySize);
  let at = 0;
  for (let n = 0; n < entries && at + 46 <= directory.length; n++) {
    if (directory.readUInt32LE(at) !== 0x02014b50) return false;
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const name = directory.toString("utf8", at + 46, at + 46 + nameLength);
    if (name.startsWith("word/")) return true;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return false;
}
