import { expect, test } from "@playwright/test";

// The built server (native Node loading the JSON-LD and VC packages outside Vite) answers an
// anonymous verifier with what it needs to check a document.
test("anyone gets the keys, the issuer's DID document and the signed status list", async ({ request, baseURL }) => {
  const jwks = await request.get("/.well-known/jwks.json");
  expect(jwks.status()).toBe(200);
  expect(jwks.headers()["content-type"]).toBe("application/jwk-set+json");
  expect(jwks.headers()["cache-control"]).toBe("public, max-age=300");
  expect(jwks.headers()["access-control-allow-origin"]).toBe("*");
  const { keys } = (await jwks.json()) as { keys: { kid: string; kty: string; crv: string; d?: string }[] };
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519" });
  expect(keys.some((key) => "d" in key)).toBe(false);

  const did = await request.get("/.well-known/did.json");
  expect(did.status()).toBe(200);
  expect(did.headers()["content-type"]).toBe("application/did+ld+json");
  const document = (await did.json()) as { id: string; assertionMethod: string[] };
  expect(document.id).toMatch(/^did:web:/);
  expect(document.assertionMethod.map((id) => id.split("#")[1]).sort()).toEqual(keys.map((key) => key.kid).sort());

  const status = await request.get("/credentials/status/1");
  expect(status.status()).toBe(200);
  expect(status.headers()["content-type"]).toBe("application/vc");
  expect(await status.json()).toMatchObject({
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: document.id,
    credentialSubject: {
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: expect.stringMatching(/^u/),
    },
    proof: { type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" },
  });

  // Read-only: a write from this very site is refused too.
  expect((await request.post("/.well-known/jwks.json", { headers: { origin: baseURL! } })).status()).toBe(405);
});
