import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  parseFormData,
  type FileUpload,
} from "@remix-run/form-data-parser";
import { authorizeChange, refuse, textFields } from "~/accounts/permissions.server";
import { sectionLimits, sectionMessages } from "./sections/section-types";

/** The file fields the editor's forms carry (one at a time). */
const fileFields = new Set(["photo", "logo", "heroImage"]);

/** The most one of the editor's requests may carry: a 5 MB image and the longest texts. */
const maxRequestBytes = sectionLimits.maxUploadBytes + 256 * 1024;

/**
 * Reads a /staff/site form (admins; one unit of the budget of changes). The HTTP layer leaves
 * this page's body unread, so nothing is read before the gate; then at most one image of 5 MB
 * and a few small fields, a larger declared length refused before a byte is read.
 */
export async function readSiteForm(request: Request) {
  const access = await authorizeChange(request, "admin");
  if (!access.ok) return { ok: false as const, refusal: refuse(access.status, access.message) };
  const refusal = async (status: number, message: string) => {
    // Unread, it is dropped here; part read, the HTTP layer drops the rest (or closes the connection).
    if (!request.bodyUsed) await request.body?.cancel().catch(() => {});
    return { ok: false as const, refusal: refuse(status, message) };
  };
  if (Number(request.headers.get("content-length") ?? "0") > maxRequestBytes)
    return refusal(413, sectionMessages.imageTooLarge);
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded"))
    return refusal(415, "Send the form's fields.");
  try {
    const form = await parseFormData(
      request,
      {
        maxFiles: 1,
        maxParts: 200,
        maxFileSize: sectionLimits.maxUploadBytes,
        maxTotalSize: maxRequestBytes,
        maxHeaderSize: 8 * 1024,
      },
      (upload: FileUpload) => (fileFields.has(upload.fieldName) ? upload : null),
    );
    return { ok: true as const, user: access.user, form, fields: textFields(form) };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || (error as Error).name === "MaxTotalSizeExceededError")
      return refusal(413, sectionMessages.imageTooLarge);
    if (error instanceof MaxFilesExceededError || (error as Error).name === "MaxPartsExceededError")
      return refusal(400, "Send one image at a time.");
    if (error instanceof FormDataParseError) return refusal(400, "Send the form's fields.");
    throw error;
  }
}

/** The uploaded file of a multipart field: its bytes, none (left empty), or a refusal. */
export async function uploaded(form: FormData, name: string): Promise<Buffer | null | "not-a-file"> {
  const file = form.get(name);
  // A file input left empty still sends a part, with no name and no bytes.
  if (file instanceof File) return file.size > 0 ? Buffer.from(await file.arrayBuffer()) : null;
  return file === null || file === "" ? null : "not-a-file";
}
