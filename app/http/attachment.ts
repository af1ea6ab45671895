/**
 * The Content-Disposition of a download: always an attachment (a stored file that is really
 * HTML can't run in the site's origin), its name as ASCII for old clients and exactly (RFC 5987)
 * for the rest.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
