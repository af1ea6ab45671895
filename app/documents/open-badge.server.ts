import { writing } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { verifyUrl } from "./code";
import {
  issuerDid,
  signCredential,
  verifyCredentialOffline,
  type CredentialCheck,
  type DidDocument,
} from "./data-integrity.server";
import { contextUrls } from "./json-ld.server";
import { isStatusSet, revocationStatusEntry, type StatusListCredential } from "./status-list.server";

/** The certificate's fields a badge carries: a `document` row of kind certificate has them all. */
export interface BadgeCertificate {
  code: string;
  holderName: string;
  title: string;
  description: string | null;
  hours: number | null;
  /** YYYY-MM-DD in the institute's time zone. */
  issuedOn: string;
  validUntil: string | null;
  /** SITE_NAME and APP_URL when it was issued. */
  issuerName: string;
  issuerUrl: string;
  statusIndex: number;
}

export interface OpenBadgeCredential {
  "@context": string[];
  id: string;
  type: ["VerifiableCredential", "OpenBadgeCredential"];
  name: string;
  issuer: { id: string; type: ["Profile"]; name: string; url: string };
  validFrom: string;
  validUntil?: string;
  credentialSubject: {
    type: ["AchievementSubject"];
    name: string;
    identifier: { type: "IdentityObject"; identityType: "name"; hashed: false; identityHash: string }[];
    achievement: {
      id: string;
      type: ["Achievement"];
      achievementType: "Certificate";
      name: string;
      description: string;
      criteria: { narrative: string };
    };
  };
  credentialStatus: ReturnType<typeof revocationStatusEntry>;
  /** A set of proofs, as the 1EdTech AchievementCredential schema wants it: here one. */
  proof: DataIntegrityProof[];
}

/** An eddsa-rdfc-2022 proof as the signer writes it. */
interface DataIntegrityProof {
  type: "DataIntegrityProof";
  cryptosuite: "eddsa-rdfc-2022";
  created: string;
  verificationMethod: string;
  proofPurpose: "assertionMethod";
  proofValue: string;
}

/**
 * The certificate as an Open Badges 3.0 OpenBadgeCredential (W3C Verifiable Credentials 2.0),
 * signed with an eddsa-rdfc-2022 Data Integrity proof by the issuer's did:web key. Its id is
 * the certificate's verify page; its credentialStatus is its bit in the revocation list.
 * `verifyUrl` is the page's address without a fragment.
 */
export async function openBadgeCredential(
  db: Db,
  certificate: BadgeCertificate,
  options: { verifyUrl: string; timeZone: string },
): Promise<OpenBadgeCredential> {
  const { issuerName, issuerUrl, title, hours } = certificate;
  const hoursText = hours ? ` (${hours} hours)` : "";
  const signed = await signCredential(db, {
    "@context": [contextUrls.credentialsV2, contextUrls.openBadgesV3],
    id: options.verifyUrl,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: title,
    issuer: { id: issuerDid(issuerUrl), type: ["Profile"], name: issuerName, url: issuerUrl },
    validFrom: startOfDay(certificate.issuedOn, options.timeZone),
    ...(certificate.validUntil ? { validUntil: endOfDay(certificate.validUntil, options.timeZone) } : {}),
    credentialSubject: {
      type: ["AchievementSubject"],
      name: certificate.holderName,
      // Open Badges names a subject without an id by an identifier; the name, in the clear.
      identifier: [
        { type: "IdentityObject", identityType: "name", hashed: false, identityHash: certificate.holderName },
      ],
      achievement: {
        id: `${options.verifyUrl}#achievement`,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: title,
        description: certificate.description || `${title}${hoursText}, a certificate of ${issuerName}.`,
        criteria: { narrative: `Completed ${title}${hoursText} at ${issuerName}.` },
      },
    },
    credentialStatus: revocationStatusEntry(issuerUrl, certificate.statusIndex),
  } satisfies Omit<OpenBadgeCredential, "proof">);
  // The signer writes a lone proof as an object; a set of one means the same in JSON-LD (and
  // verifies the same), and is the form the Open Badges schema accepts.
  return { ...signed, proof: [signed.proof as DataIntegrityProof] };
}

/**
 * A certificate's credential as stored, signed on the first call for a certificate that has
 * none yet (issued before credentials were kept, or whose signing after issue failed) and kept,
 * so every fetch gets the same bytes. Null when no certificate has this code. Two instances
 * signing at once keep the first one stored; a reissue meanwhile makes it read the row again.
 */
export async function storedOpenBadge(db: Db, code: string, timeZone: string): Promise<string | null> {
  let signed: string | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await db
      .selectFrom("document")
      .select(["id", "code", "holderName", "title", "description", "hours", "issuedOn", "validUntil"])
      .select(["issuerName", "issuerUrl", "statusIndex", "updatedAt", "credential"])
      .where("code", "=", code)
      .where("kind", "=", "certificate")
      .executeTakeFirst();
    if (!row) return null;
    if (row.credential !== null) return row.credential;
    signed = JSON.stringify(
      await openBadgeCredential(
        db,
        { ...row, hours: row.hours === null ? null : Number(row.hours), statusIndex: Number(row.statusIndex) },
        { verifyUrl: verifyUrl(row.issuerUrl, row.code), timeZone },
      ),
    );
    // The signed credential is kept for its downloads; no kept page shows it.
    const stored = await writing(db, {}, (trx) =>
      trx
        .updateTable("document")
        .set({ credential: signed })
        .where("id", "=", row.id)
        .where("credential", "is", null)
        .where("updatedAt", "=", row.updatedAt)
        .executeTakeFirst(),
    );
    if (Number(stored.numUpdatedRows) === 1) return signed;
  }
  // Changed under us three times running: what was signed last matches a row that just was.
  return signed;
}

export interface BadgeCheck extends CredentialCheck {
  /** True or false from the status list given; null when none was given (not checked). */
  revoked: boolean | null;
}

/**
 * Verifies an Open Badges credential offline: the proof against the issuer's DID document
 * given here (no network: the loader refuses every other URL), the validity dates, and, when
 * the status list credential is given, that list's own proof and the credential's bit. A
 * revoked credential is not verified.
 */
export async function verifyOpenBadgeCredential(
  credential: object,
  options: { didDocument: DidDocument; statusList?: StatusListCredential; now?: Date },
): Promise<BadgeCheck> {
  let revoked: boolean | null = null;
  const { statusList } = options;
  const check = await verifyCredentialOffline(credential, {
    didDocument: options.didDocument,
    ...(statusList ? { statusListCredentials: [statusList] } : {}),
    ...(options.now ? { now: options.now } : {}),
    checkStatus: async ({ credential: checked }) => {
      if (!statusList) return { verified: true };
      const entry = (checked as { credentialStatus?: unknown }).credentialStatus as {
        type?: unknown;
        statusPurpose?: unknown;
        statusListIndex?: unknown;
        statusListCredential?: unknown;
      };
      if (
        entry?.type !== "BitstringStatusListEntry" ||
        entry.statusPurpose !== "revocation" ||
        entry.statusListCredential !== statusList.id ||
        typeof entry.statusListIndex !== "string" ||
        !/^\d{1,10}$/.test(entry.statusListIndex)
      ) {
        return { verified: false, error: new Error("The credential's status entry does not name this status list.") };
      }
      const listCheck = await verifyCredentialOffline(statusList, {
        didDocument: options.didDocument,
        ...(options.now ? { now: options.now } : {}),
      });
      if (!listCheck.verified) {
        return { verified: false, error: new Error(`The status list did not verify: ${listCheck.errors.join("; ")}`) };
      }
      revoked = isStatusSet(statusList.credentialSubject.encodedList, Number(entry.statusListIndex));
      return revoked ? { verified: false, error: new Error("The credential has been revoked.") } : { verified: true };
    },
  });
  return { ...check, revoked };
}

// Dates as xsd:dateTimeStamp in the institute's zone: the certificate is valid from the start
// of its issue day there to the end of its last day there.
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function utcOffset(instant: Date, timeZone: string): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  return name === "GMT" ? "Z" : name.slice(3);
}

function localTime(date: string, time: string, timeZone: string): string {
  // The offset at that wall-clock time: guessed from UTC, then taken at the instant it gives.
  const guess = utcOffset(new Date(`${date}T${time}Z`), timeZone);
  return `${date}T${time}${utcOffset(new Date(`${date}T${time}${guess}`), timeZone)}`;
}

const startOfDay = (date: string, timeZone: string) => localTime(date, "00:00:00", timeZone);
const endOfDay = (date: string, timeZone: string) => localTime(date, "23:59:59", timeZone);
