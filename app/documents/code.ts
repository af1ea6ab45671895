// A document's code: what is printed on the PDF, typed on the verify page and put in its link.
// 80 random bits as 16 Crockford base-32 characters, grouped by four after "UPS".

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const prefix = "UPS";
const codeCharacters = 16;
/** Longer typed input is refused before any other work. */
const maxTypedLength = 64;

/** The printed form of 16 code characters: UPS-XXXX-XXXX-XXXX-XXXX. */
export function formatCode(characters: string): string {
  const groups = characters.match(/.{1,4}/g) ?? [];
  return [prefix, ...groups].join("-");
}

/**
 * Bytes in base 32, five bits a character, most significant first; the last character's
 * missing bits are zeros, and there is no padding.
 */
function base32(bytes: Uint8Array, digits: string): string {
  let bits = 0;
  let value = 0;
  let characters = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      characters += digits[(value >> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) characters += digits[(value << (5 - bits)) & 31];
  return characters;
}

/** A new random code in its printed form. */
export function generateCode(randomBytes: (size: number) => Uint8Array): string {
  return formatCode(base32(randomBytes(10), alphabet));
}

/**
 * The printed form of a code as someone typed it, or null if it cannot be one: case does not
 * matter, dashes and spaces are ignored, the "UPS" prefix is optional, and the look-alikes
 * O (for 0) and I or L (for 1) are read as the digits Crockford's alphabet means.
 */
export function normalizeCode(typed: string): string | null {
  if (typed.length > maxTypedLength) return null;
  let characters = typed.toUpperCase().replace(/[\s\-‐‑–—]/g, "");
  if (characters.length === prefix.length + codeCharacters && characters.startsWith(prefix)) {
    characters = characters.slice(prefix.length);
  }
  if (characters.length !== codeCharacters) return null;
  characters = characters.replace(/O/g, "0").replace(/[IL]/g, "1");
  for (const character of characters) {
    if (!alphabet.includes(character)) return null;
  }
  return formatCode(characters);
}

/** RFC 4648 base 32: upper-case letters and digits, which a QR code stores in 5.5 bits each. */
const rfc4648 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * The address that verifies a document: its code, and once documents are signed, the JWS's
 * signature alone as the fragment (which browsers never send to the server), in RFC 4648 base
 * 32 without padding. The signed fields are printed on the document, so a verifier rebuilds
 * the rest of the JWS from them (docs/architecture.md, Document signatures); the whole JWS
 * made the QR code too dense to read from a print.
 */
export function verifyUrl(appUrl: string, code: string, jws?: string | null): string {
  const base = `${appUrl.replace(/\/+$/, "")}/verify/${encodeURIComponent(code)}`;
  const signature = jws?.split(".")[2];
  if (!signature) return base;
  // atob, not Buffer: the learner's popups make this address in the browser too.
  const bytes = Uint8Array.from(atob(signature.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  return `${base}#${base32(bytes, rfc4648)}`;
}
