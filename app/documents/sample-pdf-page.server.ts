import { authorizeChange, refuseJson } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { pdfIssuer } from "./documents.server";
import { renderDocumentPdf, type PdfDocument } from "./pdf.server";
import { settingsMessages, settingsSchema, signatureLimits } from "./settings-rules";
import { prepareSignatureImage, readDocumentSettings } from "./settings.server";

/** The made-up holder and content a sample is printed with. */
function sampleContent(kind: PdfDocument["kind"], today: string): Omit<PdfDocument, "issuer" | "signatory"> {
  const certificate = kind === "certificate";
  return {
    kind,
    code: "UPS-0000-0000-0000-0000",
    holderName: "Sample Learner",
    title: certificate ? "Full Stack Web Development" : "Junior Web Developer",
    description: certificate ? "A sample: how a certificate looks with these settings." : null,
    issuedOn: today,
    validUntil: null,
    hours: certificate ? 120 : null,
    startDate: certificate ? null : today,
    location: certificate ? null : "Pune",
    pay: certificate ? null : { kind: "stipend", amountPaise: 2_500_000, period: "month" },
    replyBy: certificate ? null : today,
    paragraphs: certificate ? [] : ["A sample: how an offer letter looks with these settings."],
    verifyUrl: "",
    sample: true,
  };
}

/**
 * POST /staff/documents/sample (admins; one unit of their budget of changes, as a PDF costs some
 * CPU): a certificate or offer letter made with the settings form as it stands, before it is
 * saved (the typed names, a new signature image or the stored one, or none if it is to be
 * removed) and the brand as stored. Nothing is stored or signed; the PDF says SAMPLE.
 */
export async function sampleDocumentPdf(request: Request): Promise<Response> {
  const access = await authorizeChange(request, "admin");
  if (!access.ok) return refuseJson(access.status, access.message);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuseJson(400, "Send the form's fields.");
  }
  const kind = form.get("kind");
  if (kind !== "certificate" && kind !== "offer-letter")
    return refuseJson(400, "Choose a certificate or an offer letter.");
  const fields: Record<string, string> = {};
  for (const name of ["signatoryName", "signatoryTitle", "removeSignature"]) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  const parsed = settingsSchema.safeParse(fields);
  if (!parsed.success) return refuseJson(400, parsed.error.issues[0]?.message ?? "Invalid request.");
  const { database, storage, config } = await getServices();
  const file = form.get("signature");
  let image: Buffer | null;
  if (file instanceof File && file.size > 0) {
    if (file.size > signatureLimits.maxUploadBytes) return refuseJson(413, settingsMessages.imageTooLarge);
    const prepared = await prepareSignatureImage(Buffer.from(await file.arrayBuffer()));
    if ("refused" in prepared) return refuseJson(415, prepared.refused);
    image = prepared;
  } else {
    image = parsed.data.removeSignature ? null : (await readDocumentSettings(database.db, storage)).signatureImage;
  }
  const today = new Date().toISOString().slice(0, 10);
  const pdf = await renderDocumentPdf({
    ...sampleContent(kind, today),
    verifyUrl: `${config.appUrl}/verify`,
    issuer: await pdfIssuer(database.db, config.site),
    signatory: { name: parsed.data.signatoryName, title: parsed.data.signatoryTitle, image },
  });
  const name = kind === "certificate" ? "Sample certificate.pdf" : "Sample offer letter.pdf";
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
