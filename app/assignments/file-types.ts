/** The files an assignment accepts, shared by the picker and the server: PDF, ZIP, images. */
export const assignmentFileTypes = {
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
} as const;

export type AssignmentFileExtension = keyof typeof assignmentFileTypes;

export const assignmentFileAccept = Object.keys(assignmentFileTypes).join(",");

/** The accepted extension of a file name (any case), or null. */
export function assignmentFileExtension(fileName: string): AssignmentFileExtension | null {
  const match = /\.(pdf|zip|png|jpe?g|webp)$/i.exec(fileName.trim());
  return match ? (`.${match[1]!.toLowerCase()}` as AssignmentFileExtension) : null;
}
