export type Encoding = "br" | "gzip" | "identity";

interface Accepted {
  best: Encoding;
  gzip: boolean;
}

/** The answers for the few Accept-Encoding values browsers send, kept: parsed once each. */
const picked = new Map<string, Accepted>();

function accepted(acceptEncoding: string): Accepted {
  let found = picked.get(acceptEncoding);
  if (found === undefined) {
    found = parseAcceptEncoding(acceptEncoding);
    // What a client makes up can't fill it: only the first few values seen are kept.
    if (picked.size < 64 && acceptEncoding.length <= 256) picked.set(acceptEncoding, found);
  }
  return found;
}

/** The best encoding the client accepts among those we have precompressed. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  return acceptEncoding ? accepted(acceptEncoding).best : "identity";
}

/** Whether the client accepts gzip (what an answer spliced from precompressed parts is sent in). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding ? accepted(acceptEncoding).gzip : false;
}

function parseAcceptEncoding(acceptEncoding: string): Accepted {
  // A q=0 entry refuses that coding; anything else listed is accepted.
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name);
  }
  const gzip = accepted.has("gzip") || accepted.has("*");
  return { best: accepted.has("br") ? "br" : gzip ? "gzip" : "identity", gzip };
}

/** The content types compressed on their way out (event streams never: each event must go out at once). */
export const compressible = /^(text\/(?!event-stream)|application\/(json|xml|javascript|manifest\+json))/;
