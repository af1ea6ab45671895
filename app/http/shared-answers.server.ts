import { relayToOtherWorkers } from "~/realtime/cluster-relay.server";
import type { Logger } from "~/logging/logger.server";

// The server processes of one machine (node:cluster) each keep the signed-in answers they made.
// Behind a load balancer, or a proxy that pools its connections, a person's requests reach every
// process, so after a change each of them would read and render the same page again. Instead the
// process that made an answer hands it to the others, which keep it under the same key
// (signed-in-responses.server.ts): the session, the address, the stamp read from the database,
// and the minute. The key holds the stamp, so an answer is only ever used for a request whose own
// stamp is the one it was made from (decision 016).

/** A kept answer as one server process hands it to the others. */
export interface SharedAnswer {
  key: string;
  status: number;
  /** The router's headers, less those every answer sets itself (StoredResponse.headers). */
  headers: Record<string, string>;
  /** The body cut where its nonce stood (StoredResponse.parts). */
  parts: Buffer[];
  /** Until when it may be used (StoredResponse.validUntil). */
  validUntil: number;
  /** When the stamp it was made from was read, in milliseconds since the epoch. */
  readAt: number;
}

/** Hands kept answers to the other processes of the machine, and takes theirs. */
export interface AnswerSharing {
  share(answer: SharedAnswer): void;
  /** Calls `receive` with each answer another process shares, for as long as the process runs. */
  onShared(receive: (answer: SharedAnswer) => void): void;
}

interface SharedAnswerMessage {
  upskillKeptAnswer: Omit<SharedAnswer, "parts"> & { parts: string[] };
}

const isSharedAnswerMessage = (message: unknown): message is SharedAnswerMessage => {
  const answer = (message as Partial<SharedAnswerMessage> | null)?.upskillKeptAnswer;
  return (
    typeof answer === "object" &&
    answer !== null &&
    typeof answer.key === "string" &&
    typeof answer.status === "number" &&
    typeof answer.headers === "object" &&
    answer.headers !== null &&
    Array.isArray(answer.parts) &&
    answer.parts.every((part) => typeof part === "string") &&
    typeof answer.validUntil === "number" &&
    typeof answer.readAt === "number"
  );
};

/**
 * A worker's half: answers go to the primary over the cluster's IPC channel (the body in base64,
 * which its JSON carries without escaping), and the primary passes them to every other worker
 * (relaySharedAnswers).
 */
export function clusterAnswerSharing(logger: Logger): AnswerSharing {
  return {
    share(answer) {
      if (!process.connected || !process.send) return;
      const message: SharedAnswerMessage = {
        upskillKeptAnswer: { ...answer, parts: answer.parts.map((part) => part.toString("base64")) },
      };
      // The callback keeps a channel closed meanwhile (the primary stopping) from throwing.
      process.send(message, undefined, undefined, (error) => {
        if (error) logger.debug({ err: error }, "a kept answer could not be handed to the other server processes");
      });
    },
    onShared(receive) {
      const listener = (message: unknown) => {
        if (!isSharedAnswerMessage(message)) return;
        const { parts, ...answer } = message.upskillKeptAnswer;
        receive({ ...answer, parts: parts.map((part) => Buffer.from(part, "base64")) });
      };
      process.on("message", listener);
    },
  };
}

/** The primary's half: what one worker shares goes to every other one. */
export function relaySharedAnswers(): () => void {
  return relayToOtherWorkers(isSharedAnswerMessage);
}
