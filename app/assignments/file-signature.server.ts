import type { ByteSource } from "~/uploads/file-signature.server";
import type { AssignmentFileExtension } from "./file-types";

const signatures: Record<AssignmentFileExtension, (head: Buffer) => boolean> = {
  ".pdf": (head) => head.subarray(0, 5).toString("latin1") === "%PDF-",
  // A local file header, or the end record of an empty archive.
  ".zip": (head) => head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50,
  ".png": (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  ".jpg": (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
  ".jpeg": (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
  ".webp": (head) =>
    head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP",
};

/** True when the file's first bytes are what its extension claims. */
export async function hasAssignmentFileSignature(
  file: ByteSource,
  extension: AssignmentFileExtension,
): Promise<boolean> {
  if (file.size < 12) return false;
  return signatures[extension](await file.read(0, 12));
}
