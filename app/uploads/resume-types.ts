/** The resume formats accepted, shared by the picker and the server. */
export const resumeTypes = {
  ".pdf": "application/pdf",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
} as const;

export type ResumeExtension = keyof typeof resumeTypes;

export const resumeAccept = Object.keys(resumeTypes).join(",");

/** The accepted extension of a file name (any case), or null. */
export function resumeExtension(fileName: string): ResumeExtension | null {
  const match = /\.(pdf|docx?)$/i.exec(fileName.trim());
  return match ? (`.${match[1]!.toLowerCase()}` as ResumeExtension) : null;
}

export const resumeMessages = {
  wrongType: "Please choose a .pdf, .doc or .docx file.",
  notMatching: "This file is not a real .pdf, .doc or .docx document.",
  tooLarge: (maxMb: number) => `The resume is too large. The limit is ${maxMb} MB.`,
} as const;
