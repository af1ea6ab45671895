import type { Route } from "./+types/staff.documents.sample";
import { sampleDocumentPdf } from "~/documents/sample-pdf-page.server";

/** A sample certificate or offer letter with the document settings as typed, before saving (admins). */
export async function action({ request }: Route.ActionArgs) {
  return sampleDocumentPdf(request);
}
