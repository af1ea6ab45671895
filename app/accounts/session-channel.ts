/** Tells the site's other open tabs that the visitor signed in or out. */
const CHANNEL = "upskill-session";

export type SessionEvent = "signed-in" | "signed-out";

export function announceSession(event: SessionEvent): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(event);
  channel.close();
}

/** Calls back on every announcement from another tab; returns the unsubscribe. */
export function onSessionAnnouncement(callback: (event: SessionEvent) => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (message: MessageEvent) => {
    if (message.data === "signed-in" || message.data === "signed-out") callback(message.data);
  };
  return () => channel.close();
}
