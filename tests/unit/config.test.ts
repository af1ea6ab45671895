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

  it("runs one server process unless WEB_CONCURRENCY says how many (1 to 64)", () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: "4" }).webConcurrency).toBe(4);
    for (const value of ["0", "65", "1.5", "many"]) {
      expect(problems({ WEB_CONCURRENCY: value })).toEqual([
        `WEB_CONCURRENCY="${value}" is not valid: expected a whole number of server processes from 1 to 64`,
      ]);
    }
  });

  it("trusts one proxy hop unless told otherwise", () => {
    expect(loadConfig({ TRUST_PROXY: "X-Forwarded-For" })).toMatchObject({
      trustProxyHeader: "x-forwarded-for",
      trustProxyHops: 1,
    });
    expect(loadConfig({ TRUST_PROXY: "x-forwarded-for", TRUST_PROXY_HOPS: "2" }).trustProxyHops).toBe(2);
  });

  it("takes SITE_WHATSAPP as the number's digits for a click-to-chat link; none by default", () => {
    expect(loadConfig({}).site.whatsapp).toBeNull();
    expect(loadConfig({ SITE_WHATSAPP: "+91 98765-43210" }).site.whatsapp).toBe("919876543210");
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
    ["SITE_WHATSAPP", "wa.me/123", /SITE_WHATSAPP="wa.me\/123" is not valid: expected a WhatsApp number/],
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

  it("reads STORAGE_URL into the bucket's settings, TLS on unless tls=0", () => {
    expect(loadConfig({}).storage).toBeUndefined();
    expect(loadConfig({ STORAGE_URL: "" }).storage).toBeUndefined();
    expect(
      loadConfig({
        STORAGE_URL: "s3://AKIAEXAMPLE:se%2Fcr%2Bet@s3.eu-west-1.amazonaws.com/upskill-files?region=eu-west-1",
      }).storage,
    ).toEqual({
      endpoint: "https://s3.eu-west-1.amazonaws.com",
      region: "eu-west-1",
      bucket: "upskill-files",
      prefix: "",
      forcePathStyle: false,
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "se/cr+et" },
    });
    expect(
      loadConfig({ STORAGE_URL: "s3://k:s@minio.internal:9000/files/site-a/prod?path_style=1&tls=0" }).storage,
    ).toEqual({
      endpoint: "http://minio.internal:9000",
      region: "us-east-1",
      bucket: "files",
      prefix: "site-a/prod/",
      forcePathStyle: true,
      credentials: { accessKeyId: "k", secretAccessKey: "s" },
    });
    // No credentials: the SDK's own chain (environment, instance role).
    expect(loadConfig({ STORAGE_URL: "s3://s3.amazonaws.com/files" }).storage?.credentials).toBeUndefined();
  });

  it.each([
    ["https://k:s@host/files", /a URL starting with s3:\/\//],
    ["s3://k:s@host", /a bucket name/],
    ["s3://k:s@host/Upper_Case", /a bucket name/],
    ["s3://k@host/files", /both the access key and the secret/],
    ["s3://k:s@host/files/sub.dir", /a key prefix/],
    ["s3://k:s@host/files?regoin=eu-west-1", /only the options region, path_style and tls \(not "regoin"\)/],
    ["s3://k:s@host/files?tls=yes", /tls=0 or tls=1/],
    ["s3://k:s@host/files?region=EU WEST", /a region/],
  ])("stops at a bad STORAGE_URL (%s) with a message naming it and never its value", (value, reason) => {
    const found = problems({ STORAGE_URL: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^STORAGE_URL=\(value not shown\) is not valid: expected an S3 URL such as s3:\/\//);
    expect(found[0]).toMatch(reason);
    expect(found[0]).not.toContain("k:s@");
  });

  it("takes METRICS and METRICS_TOKEN, never printing a bad token", () => {
    expect(loadConfig({})).toMatchObject({ metrics: true, metricsToken: undefined });
    expect(loadConfig({ METRICS: "off", METRICS_TOKEN: "a".repeat(32) })).toMatchObject({
      metrics: false,
      metricsToken: "a".repeat(32),
    });
    const [tooShort] = problems({ METRICS_TOKEN: "hunter2-secret" });
    expect(tooShort).toMatch(/^METRICS_TOKEN=\(value not shown\) is not valid: expected a random string of 24/);
    expect(tooShort).not.toContain("hunter2");
    expect(problems({ METRICS: "yes" })[0]).toMatch(/METRICS="yes" is not valid: expected on or off/);
  });
});
