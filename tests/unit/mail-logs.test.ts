import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import { createLogger } from "~/logging/logger.server";
import { createMailer, recipientTag } from "~/mail/mailer.server";
import { startSmtp, type TestSmtp } from "../support/smtp";

const address = "Asha.Rao@example.com";
const message = { to: address, subject: "Your week", text: "Hello.", html: "<p>Hello.</p>" };

/** The real logger at info, writing to memory. */
function captureInfo() {
  const lines: string[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    }),
  );
  return { logger, lines };
}

describe("mail logs", () => {
  let dataDir: string;
  let smtp: TestSmtp;
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-mail-logs-"));
    smtp = await startSmtp();
  });
  afterEach(async () => {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("name the recipient by a short hash, never by address, through SMTP and into the outbox", async () => {
    const { logger, lines } = captureInfo();
    await createMailer(loadConfig({ DATA_DIR: dataDir, SMTP_URL: smtp.url }), logger).send(message);
    await createMailer(loadConfig({ DATA_DIR: dataDir }), logger).send(message);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([[address]]);

    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.toLowerCase()).not.toContain("asha.rao");
      expect(JSON.parse(line)).toMatchObject({ level: 30, recipient: recipientTag(address) });
    }
  });

  it("tag an address the same however it is written, and different addresses differently", () => {
    expect(recipientTag(address)).toMatch(/^[0-9a-f]{12}$/);
    expect(recipientTag(" asha.rao@EXAMPLE.com")).toBe(recipientTag(address));
    // sha256("asha.rao@example.com"), its first 12 hex digits (checked with sha256sum).
    expect(recipientTag(address)).toBe("f00fd4a89e84");
    expect(recipientTag("ravi@example.com")).not.toBe(recipientTag(address));
  });
});
