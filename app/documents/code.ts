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

/** A new random code in its printed form. */
export function generateCode(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let characters = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      characters += alphabet[(value >> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  return formatCode(characters);
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

/**
 * The address that verifies a document: its code, and once documents are signed, the signature
 * as the fragment (which browsers never send to the server).
 */
export function verifyUrl(appUrl: string, code: string, jws?: string | null): string {
  const base = `${appUrl.replace(/\/+$/, "")}/verify/${encodeURIComponent(code)}`;
  return jws ? `${base}#${jws}` : base;
}
