import pino, { type DestinationStream } from "pino";

/**
 * The longest string a log line keeps from any one value. Messages, error messages and stacks
 * and every string field can carry what a client sent (a URL, a header, a body field): a 10 MB
 * value must not make a 10 MB log line.
 */
export const logStringLimit = 1_000;
/** How deep and how wide logged objects are walked when strings are cut. */
const maxDepth = 6;
const maxKeys = 100;

function truncateForLog(value: string): string {
  if (value.length <= logStringLimit) return value;
  return `${value.slice(0, logStringLimit)}… [${value.length} characters]`;
}

/**
 * Fields whose value is never written, at any depth, as a safety net: code should not log
 * secrets in the first place. Matched by name while the line is walked (pino's redact with
 * wildcard paths cost 50 µs a line, ten times the rest of a request log line).
 */
const secretFields = new Set([
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "sessionToken",
  "idToken",
  "secret",
  "authSecret",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "authorization",
  "Authorization",
  "proxy-authorization",
]);
const redacted = "[redacted]";

/**
 * A copy of a logged value with secrets redacted and every string cut to logStringLimit; depth
 * and width are bounded too.
 */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return truncateForLog(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return bounded(pino.stdSerializers.err(value), depth);
  if (depth >= maxDepth) return "[nested too deep]";
  if (Array.isArray(value)) {
    const items = value.slice(0, maxKeys).map((item) => bounded(item, depth + 1));
    if (value.length > maxKeys) items.push(`… [${value.length} items]`);
    return items;
  }
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const result: Record<string, unknown> = {};
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (++count > maxKeys) {
      result["…"] = `[${Object.keys(value).length} keys]`;
      break;
    }
    result[key] = secretFields.has(key) ? redacted : bounded((value as Record<string, unknown>)[key], depth + 1);
  }
  return result;
}

/** Structured logs on stdout, every line passed through bounded (secrets out, strings cut). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    formatters: { log: (object) => bounded(object) as Record<string, unknown> },
    // bounded has serialized errors already (pino runs formatters first); pino's own err
    // serializer would serialize that copy again, as an error of type "Object".
    serializers: { err: (error: unknown) => error },
    hooks: {
      // The message and its interpolation arguments are cut too (better-auth's messages quote URLs).
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === "string" ? truncateForLog(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
  };
  // Written asynchronously: a synchronous write to a full pipe (a log reader a moment behind)
  // spins the event loop until it drains. What waits is capped (lines past it are dropped, not
  // held in memory without end), and pino writes out the rest on exit.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 }));
}

export type Logger = ReturnType<typeof createLogger>;

let logger: Logger | undefined;
export function getLogger(): Logger {
  logger ??= createLogger();
  return logger;
}
