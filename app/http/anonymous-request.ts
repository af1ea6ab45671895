/** The session cookie's name ends so (better-auth: "<prefix>.session_token", maybe __Secure-). */
const SESSION_COOKIE_MARK = "session_token=";

/** True when the request carries no session cookie, so it sees the shared public page. */
export function isAnonymousRequest(cookieHeader: string | undefined): boolean {
  return !cookieHeader || !cookieHeader.includes(SESSION_COOKIE_MARK);
}

// Campaign tags do not change what the page shows, so ad traffic still hits the cache.
const marketingParam = /^(utm_[a-z_]+|gclid|fbclid|msclkid|ref)$/i;

/** True when every query parameter is one that does not change the rendered page. */
export function isCacheableQuery(query: string): boolean {
  if (query === "") return true;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    let name: string;
    try {
      name = decodeURIComponent(pair.split("=")[0] ?? "");
    } catch {
      return false;
    }
    if (!marketingParam.test(name)) return false;
  }
  return true;
}
