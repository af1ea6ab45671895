import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatCode, generateCode, normalizeCode, verifyUrl } from "~/documents/code";
import { linkedInAddUrl } from "~/documents/share";

const printed = /^UPS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

describe("document codes", () => {
  it("are 16 Crockford characters from 80 random bits, in groups of four", () => {
    expect(generateCode(() => new Uint8Array(10))).toBe("UPS-0000-0000-0000-0000");
    expect(generateCode(() => new Uint8Array(10).fill(255))).toBe("UPS-ZZZZ-ZZZZ-ZZZZ-ZZZZ");
    // 0x08 0x86 0x42 ... : the bits 00001 00010 00011 00100 ... read as 1 2 3 4 ...
    const counting = Uint8Array.from([0x08, 0x86, 0x42, 0x98, 0xe8, 0x4a, 0x96, 0xc6, 0xb9, 0xf0]);
    expect(generateCode(() => counting)).toBe("UPS-1234-5678-9ABC-DEFG");
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateCode(randomBytes);
      expect(code).toMatch(printed);
      seen.add(code);
    }
    expect(seen.size).toBe(2000);
  });

  it("read back as typed: any case, dashes and spaces forgiven, look-alikes read as digits", () => {
    const code = "UPS-1234-5678-9ABC-DEFG";
    expect(normalizeCode(code)).toBe(code);
    expect(normalizeCode("ups-1234-5678-9abc-defg")).toBe(code);
    expect(normalizeCode(" ups 1234 5678 9abc defg ")).toBe(code);
    expect(normalizeCode("123456789ABCDEFG")).toBe(code);
    expect(normalizeCode("UPS–1234–5678–9ABC–DEFG")).toBe(code);
    expect(normalizeCode("UPS-O0IL-5678-9ABC-DEFG")).toBe("UPS-0011-5678-9ABC-DEFG");
    expect(normalizeCode("ups-o0il-5678-9abc-defg")).toBe("UPS-0011-5678-9ABC-DEFG");
  });

  it("refuse what cannot be a code", () => {
    expect(normalizeCode("")).toBeNull();
    expect(normalizeCode("UPS-1234-5678-9ABC-DEF")).toBeNull();
    expect(normalizeCode("UPS-1234-5678-9ABC-DEFGH")).toBeNull();
    expect(normalizeCode("UPS-1234-5678-9ABC-DEFU")).toBeNull();
    expect(normalizeCode("XYZ-1234-5678-9ABC-DEFG")).toBeNull();
    expect(normalizeCode("UPS-1234-5678-9ABC-DEF!")).toBeNull();
    expect(normalizeCode("1".repeat(10_000))).toBeNull();
    expect(normalizeCode("-".repeat(65) + "123456789ABCDEFG")).toBeNull();
  });

  it("format 16 characters the printed way", () => {
    expect(formatCode("ABCDEFGHJKMNPQRS")).toBe("UPS-ABCD-EFGH-JKMN-PQRS");
  });

  it("link to the verify page, with the JWS's signature in base 32 as the fragment when there is one", () => {
    expect(verifyUrl("https://upskill.example/", "UPS-1234-5678-9ABC-DEFG")).toBe(
      "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG",
    );
    // The signature's bytes 0 1 2 3 4 (base64url AAECAwQ) in RFC 4648 base 32, unpadded.
    expect(verifyUrl("https://upskill.example", "UPS-1234-5678-9ABC-DEFG", "eyJ9.e30.AAECAwQ")).toBe(
      "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG#AAAQEAYE",
    );
    // A 64-byte Ed25519 signature: 103 characters, as Python's base64.b32encode writes them.
    const signature = Buffer.from(Array.from({ length: 64 }, (_, index) => index)).toString("base64url");
    expect(verifyUrl("https://upskill.example", "UPS-1234-5678-9ABC-DEFG", `eyJ9.e30.${signature}`)).toBe(
      "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG#AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPSAIJCEMSCKJRHFAUSUKZMFUXC6MBRGIZTINJWG44DSOR3HQ6T4PY",
    );
    expect(verifyUrl("https://upskill.example", "UPS-1234-5678-9ABC-DEFG", null)).toBe(
      "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG",
    );
  });
});

describe("sharing a certificate on LinkedIn", () => {
  it("fills LinkedIn's add-to-profile form with the certificate", () => {
    const url = new URL(
      linkedInAddUrl(
        {
          title: "Full Stack Web Development",
          issuerName: "Upskill & Co",
          issuedOn: "2026-03-05",
          validUntil: "2028-11-30",
          code: "UPS-1234-5678-9ABC-DEFG",
        },
        "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG",
      ),
    );
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Full Stack Web Development",
      organizationName: "Upskill & Co",
      issueYear: "2026",
      issueMonth: "3",
      expirationYear: "2028",
      expirationMonth: "11",
      certUrl: "https://upskill.example/verify/UPS-1234-5678-9ABC-DEFG",
      certId: "UPS-1234-5678-9ABC-DEFG",
    });
  });
});
