import { authorizeChange, refuse, requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import type { Actor } from "~/core/people";
import { settingsMessages, settingsSchema, signatureLimits } from "./settings-rules";
import { saveDocumentSettings, settingsForPage } from "./settings.server";

/** /staff/documents: what new documents are signed with (admins only). */
export async function loadDocumentSettingsPage(request: Request) {
  const user = await requireRole(request, "admin");
  const { database, storage, config } = await getServices();
  return {
    user: { id: user.id, level: user.level },
    settings: await settingsForPage(database.db, storage),
    timeZone: config.instituteTimeZone,
  };
}

/**
 * Saves the settings (admin; one unit of the staff budget of changes). The form is multipart:
 * the two names, and optionally the signature image as a file or a request to remove it.
 */
export async function documentSettingsAction(request: Request) {
  const access = await authorizeChange(request, "admin");
  if (!access.ok) return refuse(access.status, access.message);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse(400, "Send the form's fields.");
  }
  if (form.get("intent") !== "save-document-settings") return refuse(400, "Unknown action.");
  const fields: Record<string, string> = {};
  for (const name of ["signatoryName", "signatoryTitle", "removeSignature"]) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  const parsed = settingsSchema.safeParse(fields);
  if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
  const file = form.get("signature");
  let image: Buffer | null = null;
  // A file input left empty still sends a part, with no name and no bytes.
  if (file instanceof File && file.size > 0) {
    if (file.size > signatureLimits.maxUploadBytes) return refuse(413, settingsMessages.imageTooLarge);
    image = Buffer.from(await file.arrayBuffer());
  } else if (typeof file === "string" && file !== "") {
    return refuse(415, settingsMessages.notPng);
  }
  const { user } = access;
  const actor: Actor = { id: user.id, name: user.username || user.email, role: user.role ?? "" };
  const { database, storage, logger } = await getServices();
  const result = await saveDocumentSettings({ db: database.db, storage, logger }, actor, { ...parsed.data, image });
  return result.ok ? result : refuse(result.status, result.message);
}
