import pino from "pino";

/** Structured logs on stdout. Secrets are redacted wherever they could appear. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? "info") {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        "password",
        "*.password",
        "newPassword",
        "*.newPassword",
        "token",
        "*.token",
        "headers.cookie",
        "headers.authorization",
      ],
      censor: "[redacted]",
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;

let logger: Logger | undefined;
export function getLogger(): Logger {
  logger ??= createLogger();
  return logger;
}
export function setLogger(next: Logger): void {
  logger = next;
}
