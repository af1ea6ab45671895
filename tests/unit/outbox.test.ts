import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import { createLogger } from "~/logging/logger.server";
import { createMailer } from "~/mail/mailer.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-outbox-"));
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it("never shows half a message in the outbox, even one written in many pieces", async () => {
  const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), createLogger("silent"));
  const outbox = path.join(dataDir, "outbox");
  // What a reader of the outbox sees while the message is written, at every turn of the event
  // loop: an 8 MB attachment is written in many pieces, each a turn of its own.
  const seen: number[] = [];
  let sending = true;
  const look = () => {
    if (fs.existsSync(outbox)) {
      for (const name of fs.readdirSync(outbox)) seen.push(fs.statSync(path.join(outbox, name)).size);
    }
    if (sending) setImmediate(look);
  };
  look();
  await mailer.send({
    to: "learner@example.com",
    subject: "Your files",
    text: "Attached.",
    html: "<p>Attached.</p>",
    attachments: [
      { filename: "big.bin", content: Buffer.alloc(8 * 1024 * 1024, 7), contentType: "application/octet-stream" },
    ],
  });
  sending = false;

  const [name, ...others] = fs.readdirSync(outbox);
  expect(others).toEqual([]);
  const whole = fs.statSync(path.join(outbox, name!)).size;
  expect(whole).toBeGreaterThan(8 * 1024 * 1024);
  expect(seen.filter((size) => size !== whole)).toEqual([]);
  expect(fs.statSync(path.join(outbox, name!)).mode & 0o777).toBe(0o600);
});
