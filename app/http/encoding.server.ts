export type Encoding = "br" | "gzip" | "identity";

/** The answers for the few Accept-Encoding values browsers send, kept: parsed once each. */
const picked = new Map<string, Encoding>();

/** The best encoding the client accepts among those we have precompressed. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = picked.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(acceptEncoding);
    // What a client makes up can't fill it: only the first few values seen are kept.
    if (picked.size < 64 && acceptEncoding.length <= 256) picked.set(acceptEncoding, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  // A q=0 entry refuses that coding; anything else listed is accepted.
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return "identity";
}

/** The content types compressed on their way out (event streams never: each event must go out at once). */
export const compressible = /^(text\/(?!event-stream)|application\/(json|xml|javascript|manifest\+json))/;
