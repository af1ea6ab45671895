import { isIP } from "node:net";

/**
 * The client's IP from a proxy header such as X-Forwarded-For, given how many proxies of ours
 * append to it. Each proxy appends the address it received the request from, so the entries on
 * the right were written by our proxies and everything further left came from the client, who
 * can write anything there. The client is therefore `hops` entries from the right; with fewer
 * entries than that, the left-most one. Returns undefined when the header holds no IP there.
 */
export function addressFromProxyHeader(value: string | string[] | undefined, hops: number): string | undefined {
  if (value === undefined) return undefined;
  // Repeated headers are one list, in order (RFC 9110 section 5.3).
  const entries = (Array.isArray(value) ? value.join(",") : value)
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const chosen = withoutPort(entries[Math.max(0, entries.length - hops)]!);
  return isIP(chosen) ? chosen : undefined;
}

/** "203.0.113.7:5123" and "[2001:db8::1]:443" as some proxies write them, without the port. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return ipv4WithPort ? ipv4WithPort[1]! : entry;
}
