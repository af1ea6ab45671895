import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { DidDocument } from "~/documents/data-integrity.server";
import { openBadgeCredential, verifyOpenBadgeCredential } from "~/documents/open-badge.server";
import { rotateSigningKey, signDocumentClaims } from "~/documents/signing.server";
import type { StatusListCredential } from "~/documents/status-list.server";
import * as statusRoute from "~/routes/credentials.status.1";
import * as didRoute from "~/routes/well-known.did";
import * as jwksRoute from "~/routes/well-known.jwks";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness } from "../support/test-app";

// What a third party fetches to check a document: the routes' answers, read as JSON, and
// nothing of this app's state besides.
describeEachDatabase("the signature documents' routes", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const publicHeaders = (response: Response, contentType: string) => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(contentType);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  };

  it("/.well-known/jwks.json verifies every document JWS, before and after a rotation", async () => {
    const claims = {
      code: "UPS-7K3M-Q9PX-2D4F-HW8R",
      kind: "certificate" as const,
      holder: "Asha Rao",
      title: "Python for Data Analysis",
      issuedOn: "2025-03-14",
      validUntil: null,
      issuer: appUrl,
    };
    const first = await signDocumentClaims(handle.db, claims);
    await rotateSigningKey(handle.db);
    const second = await signDocumentClaims(handle.db, claims);

    const response = await jwksRoute.loader();
    publicHeaders(response, "application/jwk-set+json");
    const keySet = (await response.json()) as JSONWebKeySet;
    expect(keySet.keys).toHaveLength(2);
    expect(JSON.stringify(keySet)).not.toContain('"d"');
    for (const jws of [first, second])
      await expect(compactVerify(jws, createLocalJWKSet(keySet))).resolves.toBeTruthy();
  });

  it("/.well-known/did.json and /credentials/status/1 verify a credential and its status", async () => {
    const credential = await openBadgeCredential(
      handle.db,
      {
        code: "UPS-7K3M-Q9PX-2D4F-HW8R",
        holderName: "Asha Rao",
        title: "Python for Data Analysis",
        description: null,
        hours: null,
        issuedOn: "2025-03-14",
        validUntil: null,
        issuerName: "Upskill",
        issuerUrl: appUrl,
        statusIndex: 0,
      },
      { verifyUrl: `${appUrl}/verify/UPS-7K3M-Q9PX-2D4F-HW8R`, timeZone: "Asia/Kolkata" },
    );

    const didResponse = await didRoute.loader();
    publicHeaders(didResponse, "application/did+ld+json");
    const didDocument = (await didResponse.json()) as DidDocument;
    expect(didDocument.id).toBe("did:web:localhost%3A3999");

    const statusResponse = await statusRoute.loader();
    publicHeaders(statusResponse, "application/vc");
    const statusList = (await statusResponse.json()) as StatusListCredential;
    expect(statusList.id).toBe(`${appUrl}/credentials/status/1`);

    expect(
      await verifyOpenBadgeCredential(JSON.parse(JSON.stringify(credential)), { didDocument, statusList }),
    ).toEqual({ verified: true, errors: [], revoked: false });
  });
});
