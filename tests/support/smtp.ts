// A real SMTP server for tests: it receives what the app sends, parses each message, and can
// refuse messages the way a mail server does (a temporary 4xx or a permanent 5xx).
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The next messages get this reply code (e.g. 451, 550) instead of being accepted. */
  refuseNext(count: number, code: number): void;
  /** How many messages were refused so far. */
  refused: number;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let refusals: { count: number; code: number } = { count: 0, code: 0 };
  const state = { refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals.count > 0) {
          refusals = { ...refusals, count: refusals.count - 1 };
          state.refused++;
          const error = Object.assign(new Error(refusals.code >= 500 ? "Mailbox unavailable" : "Try again later"), {
            responseCode: refusals.code,
          });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        void simpleParser(raw).then((parsed) => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.toString(), parsed });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseNext(count, code) {
      refusals = { count, code };
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header's value as text (mailparser gives structured values for some). */
export function headerText(mail: ReceivedMail, name: string): string {
  const line = mail.parsed.headerLines.find((header) => header.key === name.toLowerCase());
  return line ? line.line.slice(line.line.indexOf(":") + 1).trim() : "";
}
