// Where a certificate is shared from the learner's popup.

/**
 * LinkedIn's "Add to profile" link for a certificate: its form opens filled in with the name,
 * the issuer, the dates, the credential's id and its verify address.
 */
export function linkedInAddUrl(
  certificate: { title: string; issuerName: string; issuedOn: string; validUntil: string | null; code: string },
  verifyAddress: string,
): string {
  const [issueYear, issueMonth] = certificate.issuedOn.split("-");
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: certificate.title,
    organizationName: certificate.issuerName,
    issueYear: String(Number(issueYear)),
    issueMonth: String(Number(issueMonth)),
  });
  if (certificate.validUntil) {
    const [expirationYear, expirationMonth] = certificate.validUntil.split("-");
    params.set("expirationYear", String(Number(expirationYear)));
    params.set("expirationMonth", String(Number(expirationMonth)));
  }
  params.set("certUrl", verifyAddress);
  params.set("certId", certificate.code);
  return `https://www.linkedin.com/profile/add?${params}`;
}
