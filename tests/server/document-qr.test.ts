import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { afterEach, beforeEach, expect, it } from "vitest";
import { publishedKeySet } from "~/documents/signing.server";
import { loadVerifyPage } from "~/documents/verify-page.server";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { scanQr } from "../support/qr-image";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// The QR code printed on a document, as a scanner reads it from a 150 dpi render: small enough
// to read (version 8 at most), opening the verify page, and carrying a signature that a
// verifier checks against the printed fields and a copy of the published keys, offline.

/** RFC 4648 base 32 without padding, decoded. */
function fromBase32(text: string): Buffer {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let value = 0;
  let bits = 0;
  for (const character of text) {
    const digit = digits.indexOf(character);
    if (digit < 0) throw new Error(`not base 32: ${character}`);
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(bytes);
}

interface Printed {
  kind: "certificate" | "offer-letter";
  holder: string;
  title: string;
  issuedOn: string;
  validUntil: string | null;
}

const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/**
 * What docs/architecture.md tells a verifier to do without the network: rebuild the JWS from
 * the scanned address (issuer and code), the printed fields and each published key's kid, and
 * check the scanned signature. The JWS one of the keys verifies, or an error.
 */
async function verifyOffline(scanned: string, printed: Printed, keySet: JSONWebKeySet): Promise<string> {
  const [address, fragment] = scanned.split("#");
  const [, issuer, code] = /^(.+)\/verify\/([^/#]+)$/.exec(address!)!;
  const signature = fromBase32(fragment!).toString("base64url");
  const payload = {
    cd: decodeURIComponent(code!),
    k: printed.kind,
    h: printed.holder,
    t: printed.title,
    d: printed.issuedOn,
    ...(printed.validUntil ? { u: printed.validUntil } : {}),
    iss: issuer,
  };
  for (const key of keySet.keys) {
    const header = { alg: "EdDSA", kid: key.kid, typ: "upskill-document+jws" };
    const jws = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}.${signature}`;
    try {
      await compactVerify(jws, createLocalJWKSet({ keys: [key] }), { algorithms: ["EdDSA"] });
      return jws;
    } catch {
      // Not this key: the next one.
    }
  }
  throw new Error("no published key signed these fields");
}

describeEachDatabase("documents: the printed QR code", (database) => {
  let handle: TestDatabaseHandle;
  let app: Harness;
  let admin: Learner;
  let rahul: Learner;

  beforeEach(async () => {
    handle = await database.open();
    app = await createHarness(handle);
    admin = await app.signUp("Admin");
    await app.setRole(admin, "admin");
    rahul = await app.signUp("Rahul");
    await handle.db.updateTable("user").set({ username: `राहुल O'Neil` }).where("id", "=", rahul.id).execute();
  });
  afterEach(async () => {
    await app.dispose();
    await handle.dispose();
  });

  const issued = async (fields: Record<string, string>) => {
    const result = await app.act(admin, `/staff/learners/${rahul.id}`, {
      learnerIds: rahul.id,
      learnerId: rahul.id,
      ...fields,
    });
    expect(result.status, result.data.message).toBe(200);
    const document = await handle.db
      .selectFrom("document")
      .selectAll()
      .where("learnerId", "=", rahul.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    const response = await app.call(rahul, "GET", `/api/documents/${document.code}/pdf`);
    expect(response.status).toBe(200);
    return { document, pdf: Buffer.from(await response.arrayBuffer()) };
  };

  for (const kind of ["certificate", "offer-letter"] as const) {
    it(`${kind}: reads from a 150 dpi render as version 8 or less, opens its verify page, and its signature checks offline`, async () => {
      const { document, pdf } = await issued(
        kind === "certificate"
          ? {
              intent: "issue-certificate",
              title: "Web Development (R&D) — विकास",
              description: "",
              issuedOn: "",
              validUntil: "2099-12-31",
              hours: "120",
            }
          : {
              intent: "issue-offer-letter",
              title: "Junior Web Developer",
              issuedOn: "",
              startDate: "2099-01-04",
              location: "Pune",
              payKind: "stipend",
              payAmount: "25,000",
              payPeriod: "month",
              replyBy: "2099-01-01",
              body: "Welcome!",
            },
      );
      const scanned = scanQr(pdf, 150);
      expect(scanned.version).toBeLessThanOrEqual(8);
      expect(scanned.text.startsWith(`${appUrl}/verify/${document.code}#`)).toBe(true);

      // The address (a browser sends it without the fragment) opens the document's verify page.
      const request = new Request(scanned.text.split("#")[0]!, { headers: { [CLIENT_IP_HEADER]: "203.0.113.7" } });
      const page = await outcome<Awaited<ReturnType<typeof loadVerifyPage>>>(() =>
        loadVerifyPage(request, decodeURIComponent(new URL(request.url).pathname.split("/")[2]!)),
      );
      expect(page.status).toBe(200);
      expect(page.data.document).toMatchObject({ code: document.code, holderName: `राहुल O'Neil` });

      // Offline: the fields as printed and the key set from any earlier fetch check the signature;
      // the JWS rebuilt is the one stored at issue.
      const keySet = await publishedKeySet(handle.db);
      const printed: Printed = {
        kind,
        holder: document.holderName,
        title: document.title,
        issuedOn: document.issuedOn,
        validUntil: document.validUntil,
      };
      expect(await verifyOffline(scanned.text, printed, keySet)).toBe(document.jws);
      // A name or title changed on the paper, or another date, fails.
      await expect(verifyOffline(scanned.text, { ...printed, holder: "Rahul O'Neil" }, keySet)).rejects.toThrow();
      await expect(verifyOffline(scanned.text, { ...printed, title: `${printed.title}.` }, keySet)).rejects.toThrow();
      await expect(verifyOffline(scanned.text, { ...printed, issuedOn: "2020-01-01" }, keySet)).rejects.toThrow();
    });
  }
});
