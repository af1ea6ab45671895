import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/config/config.server";

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("has working defaults for a fresh machine", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.appUrl).toBe("http://localhost:3000");
    expect(config.smtpUrl).toBeUndefined();
    expect(config.site.name).toBe("Upskill");
    expect(config.site.address).toContain("Pune");
  });

  it("derives APP_URL from PORT and trims a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).appUrl).toBe("http://localhost:8080");
    expect(loadConfig({ APP_URL: "https://learn.example.in/" }).appUrl).toBe("https://learn.example.in");
  });

  it("trusts one proxy hop unless told otherwise", () => {
    expect(loadConfig({ TRUST_PROXY: "X-Forwarded-For" })).toMatchObject({
      trustProxyHeader: "x-forwarded-for",
      trustProxyHops: 1,
    });
    expect(loadConfig({ TRUST_PROXY: "x-forwarded-for", TRUST_PROXY_HOPS: "2" }).trustProxyHops).toBe(2);
  });

  it("treats empty values as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", SMTP_URL: "" }).databaseUrl).toBeUndefined();
  });

  it.each([
    ["PORT", "eighty", /PORT="eighty" is not valid: expected a whole number from 1 to 65535/],
    ["PORT", "70000", /PORT="70000" is not valid: expected a whole number/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL="mysql:\/\/x" is not valid: expected a PostgreSQL URL/],
    ["APP_URL", "localhost:3000", /APP_URL="localhost:3000" is not valid: expected the public base URL/],
    ["SMTP_URL", "mail.example.com", /SMTP_URL="mail.example.com" is not valid: expected an SMTP URL/],
    ["PAYMENT_URL", "javascript:alert(1)", /PAYMENT_URL=.* is not valid: expected the payment link/],
    ["SITE_EMAIL", "not an email", /SITE_EMAIL="not an email" is not valid: expected an email address/],
    ["SITE_PHONE", "call us", /SITE_PHONE="call us" is not valid: expected a phone number/],
    ["TRUST_PROXY", "x forwarded", /TRUST_PROXY="x forwarded" is not valid: expected the name of the header/],
    ["LOG_LEVEL", "loud", /LOG_LEVEL="loud" is not valid/],
    ["TRUST_PROXY_HOPS", "0", /TRUST_PROXY_HOPS="0" is not valid: expected a whole number from 1 to 10/],
    ["TRUST_PROXY_HOPS", "two", /TRUST_PROXY_HOPS="two" is not valid: expected a whole number from 1 to 10/],
    ["TRUST_PROXY_HOPS", "1.5", /TRUST_PROXY_HOPS="1.5" is not valid: expected a whole number from 1 to 10/],
  ])("rejects %s=%s with a message naming it", (name, value, message) => {
    const found = problems({ [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it("reports every invalid variable at once", () => {
    expect(problems({ PORT: "0", SITE_EMAIL: "x" }).map((p) => p.split("=")[0])).toEqual(["PORT", "SITE_EMAIL"]);
  });
});
