import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, logStringLimit } from "~/logging/logger.server";

/** The fields these tests read back from a line. */
interface LogLine {
  msg: string;
  path: string;
  err: { type: string; message: string; stack: string; body: { redirectTo: string } };
  nested: { list: string[] };
}

/** The real logger, writing its lines to memory instead of stdout. */
function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const logger = createLogger("debug", destination);
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as LogLine) };
}

const tenMegabytes = "x".repeat(10 * 1024 * 1024);

describe("logger", () => {
  it("keeps a line small when an error, a field or the message carries a 10 MB string", () => {
    const { logger, lines, records } = capture();
    const error = Object.assign(new Error(`Invalid redirectURL: ${tenMegabytes}`), {
      body: { redirectTo: tenMegabytes },
    });
    logger.error({ err: error, path: tenMegabytes, nested: { list: [tenMegabytes] } }, "request failed");
    logger.error(`Invalid redirectURL: ${tenMegabytes}`);
    logger.warn("refused %s", tenMegabytes);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThan(8 * 1024);
    const [first, second] = records() as [LogLine, LogLine];
    expect(first.err.type).toBe("Error");
    expect(first.err.message).toContain(`… [${10 * 1024 * 1024 + 21} characters]`);
    expect(first.err.stack.length).toBeLessThan(logStringLimit + 50);
    expect(first.err.body.redirectTo).toMatch(/^x{1000}… \[10485760 characters\]$/);
    expect(first.path).toMatch(/^x{1000}… \[10485760 characters\]$/);
    expect(first.nested.list[0]).toMatch(/^x{1000}…/);
    expect(second.msg).toMatch(/^Invalid redirectURL: x+… \[10485781 characters\]$/);
  });

  it("leaves ordinary values as they are", () => {
    const { logger, records } = capture();
    logger.info({ reqId: "a-1", method: "GET", path: "/about", status: 200, ms: 1.5 }, "request");
    expect(records()[0]).toMatchObject({ reqId: "a-1", method: "GET", path: "/about", status: 200, ms: 1.5 });
  });

  it("never writes cookies, authorization headers, passwords or tokens", () => {
    const { logger, lines } = capture();
    logger.warn(
      {
        headers: { cookie: "better-auth.session_token=SECRET1", authorization: "Bearer SECRET2" },
        req: { headers: { cookie: "SECRET3", "set-cookie": "SECRET4" } },
        body: { password: "SECRET5", token: "SECRET6" },
        session: { sessionToken: "SECRET7" },
        secret: "SECRET8",
        deep: { request: { init: { headers: { Authorization: "Basic SECRET9" } } } },
      },
      "something odd",
    );
    expect(lines[0]).not.toMatch(/SECRET/);
    expect(lines[0]).toContain("[redacted]");
  });
});
