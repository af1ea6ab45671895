import path from "node:path";
import { z } from "zod";
import { parseStorageUrl, storageUrlExample, type S3Settings } from "./storage-url";

/** Every environment variable the server reads, with its default. The README's table mirrors this. */
const port = z.coerce
  .number({ error: "a whole number from 1 to 65535" })
  .int("a whole number from 1 to 65535")
  .min(1, "a whole number from 1 to 65535")
  .max(65535, "a whole number from 1 to 65535");

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, `${what} (an http:// or https:// URL)`);

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1, "a host name or IP address to listen on").default("0.0.0.0"),
  WEB_CONCURRENCY: z.coerce
    .number({ error: "a whole number of server processes from 1 to 64" })
    .int("a whole number of server processes from 1 to 64")
    .min(1, "a whole number of server processes from 1 to 64")
    .max(64, "a whole number of server processes from 1 to 64")
    .default(1),
  DATA_DIR: z.string().trim().min(1, "a directory path").default("./data"),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, "a PostgreSQL URL such as postgres://user@host:5432/db"),
  ),
  APP_URL: optional(httpUrl("the public base URL of the site")),
  SMTP_URL: optional(
    z
      .string()
      .trim()
      .regex(/^smtps?:\/\//, "an SMTP URL such as smtp://user:pass@mail.example.com:587"),
  ),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      /^[^@\s]+@[^@\s]+\.[^@\s]+$|<[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+>$/,
      "an email address, optionally as Name <address>",
    )
    .optional(),
  PAYMENT_URL: httpUrl("the payment link for Register Now").default("https://payments.example.com/upskill"),
  SITE_NAME: z.string().trim().min(1, "the institute's name").default("Upskill"),
  SITE_EMAIL: z
    .string()
    .trim()
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, "an email address")
    .default("hello@upskill.example"),
  SITE_PHONE: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,20}$/, "a phone number")
    .default("+91 98765 43210"),
  SITE_ADDRESS: z
    .string()
    .trim()
    .min(1, "the institute's postal address")
    .default("3rd Floor, Sai Complex, Baner Road, Baner, Pune, Maharashtra 411045"),
  SITE_WHATSAPP: optional(
    z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{10,20}$/, "a WhatsApp number with its country code, such as +91 98765 43210")
      .transform((value) => value.replace(/\D/g, "")),
  ),
  TRUST_PROXY: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]+$/, "the name of the header your proxy puts the client IP in, such as x-forwarded-for"),
  ),
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: "a whole number from 1 to 10" })
    .int("a whole number from 1 to 10")
    .min(1, "a whole number from 1 to 10")
    .max(10, "a whole number from 1 to 10")
    .default(1),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_SECRET: optional(z.string().min(32, "a random string of at least 32 characters (openssl rand -base64 32)")),
  AUTH_RATE_LIMIT: z.coerce
    .number({ error: "a whole number of at least 1" })
    .int("a whole number of at least 1")
    .min(1, "a whole number of at least 1")
    .default(10),
  RESUME_MAX_MB: z.coerce
    .number({ error: "a number of megabytes greater than 0" })
    .positive("a number of megabytes greater than 0")
    .max(1024, "a number of megabytes up to 1024")
    .default(10),
  ASSIGNMENT_MAX_MB: z.coerce
    .number({ error: "a number of megabytes greater than 0" })
    .positive("a number of megabytes greater than 0")
    .max(1024, "a number of megabytes up to 1024")
    .default(20),
  INSTITUTE_TZ: z
    .string()
    .trim()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "an IANA time zone such as Asia/Kolkata")
    .default("Asia/Kolkata"),
  DIGEST_HOUR: z.coerce
    .number({ error: "an hour from 0 to 23" })
    .int("an hour from 0 to 23")
    .min(0, "an hour from 0 to 23")
    .max(23, "an hour from 0 to 23")
    .default(18),
  STORAGE_URL: optional(
    z
      .string()
      .trim()
      .transform((value, context) => {
        const parsed = parseStorageUrl(value);
        if ("problem" in parsed) {
          context.addIssue({ code: "custom", message: `an S3 URL such as ${storageUrlExample}: ${parsed.problem}` });
          return z.NEVER;
        }
        return parsed;
      }),
  ),
  METRICS: optional(z.enum(["on", "off"], { error: "on or off" })),
  METRICS_TOKEN: optional(
    z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{24,256}$/, "a random string of 24 to 256 characters without spaces (openssl rand -hex 24)"),
  ),
});

/** Variables whose values are secrets: a bad one is named but never printed. */
const secretVariables = new Set(["STORAGE_URL", "METRICS_TOKEN"]);

export type Config = {
  port: number;
  host: string;
  /**
   * How many server processes share the port (node:cluster): 1 is a single process. `npm start`
   * sets it to the number of cores when WEB_CONCURRENCY is unset (server.js).
   */
  webConcurrency: number;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  smtpUrl: string | undefined;
  /** MAIL_FROM as given, or the no-reply address alone (the sender's name is then the stored site name). */
  mailFrom: string;
  paymentUrl: string;
  /** `whatsapp`: the number's digits with the country code, for a click-to-chat link; null: none. */
  site: { name: string; email: string; phone: string; address: string; whatsapp: string | null };
  /** The request header that carries the client IP (set by a trusted proxy); else the socket's. */
  trustProxyHeader: string | undefined;
  /**
   * How many proxies of yours append to that header: the client is the entry this many places
   * from the right (entries further left were sent by the client and are not trusted).
   */
  trustProxyHops: number;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** Signs session cookies; without it one is generated and kept in the database. */
  authSecret: string | undefined;
  /** Sign-in, sign-up and reset attempts allowed per client IP per minute (each kind counted apart). */
  authRateLimit: number;
  /** The largest resume accepted, in bytes (RESUME_MAX_MB). */
  resumeMaxBytes: number;
  /** The largest file handed in for an assignment, in bytes (ASSIGNMENT_MAX_MB). */
  assignmentMaxBytes: number;
  /** The institute's time zone: the learner's Day N counts calendar days there. */
  instituteTimeZone: string;
  /** The hour (0–23, in the institute's time zone) from which each day's digest emails go out. */
  digestHour: number;
  /** The S3-compatible bucket uploads live in (STORAGE_URL); absent: the local disk under dataDir. */
  storage: S3Settings | undefined;
  /** Whether request metrics are collected and /metrics answers. */
  metrics: boolean;
  /** The bearer token /metrics asks for; absent: only requests from this machine get an answer. */
  metricsToken: string | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and validates the configuration once; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const shown = secretVariables.has(name) ? "(value not shown)" : JSON.stringify(env[name] ?? "");
        return `${name}=${shown} is not valid: expected ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const appHost = new URL(appUrl).hostname;
  return {
    port: e.PORT,
    host: e.HOST,
    webConcurrency: e.WEB_CONCURRENCY,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    appUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${appHost.includes(".") ? appHost : "localhost.localdomain"}`,
    paymentUrl: e.PAYMENT_URL,
    site: {
      name: e.SITE_NAME,
      email: e.SITE_EMAIL,
      phone: e.SITE_PHONE,
      address: e.SITE_ADDRESS,
      whatsapp: e.SITE_WHATSAPP ?? null,
    },
    trustProxyHeader: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET,
    authRateLimit: e.AUTH_RATE_LIMIT,
    resumeMaxBytes: Math.round(e.RESUME_MAX_MB * 1024 * 1024),
    assignmentMaxBytes: Math.round(e.ASSIGNMENT_MAX_MB * 1024 * 1024),
    instituteTimeZone: e.INSTITUTE_TZ,
    digestHour: e.DIGEST_HOUR,
    storage: e.STORAGE_URL,
    metrics: e.METRICS !== "off",
    metricsToken: e.METRICS_TOKEN,
  };
}

let current: Config | undefined;

/** The process-wide configuration, read on first use. */
export function getConfig(): Config {
  current ??= loadConfig();
  return current;
}
