import cluster, { type Worker } from "node:cluster";

/**
 * The primary's relay of one kind of message between the server processes of one machine
 * (node:cluster): what a worker sends that `accepts` recognises goes to every other worker.
 * A worker that is stopping may miss it. Returns the function that stops the relay.
 */
export function relayToOtherWorkers(accepts: (message: unknown) => boolean): () => void {
  const relay = (from: Worker, message: unknown) => {
    if (!accepts(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(message as object, undefined, () => {});
    }
  };
  cluster.on("message", relay);
  return () => cluster.off("message", relay);
}
