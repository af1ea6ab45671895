/**
 * The field every change carries: a key the browser makes for one submission and sends again
 * with each retry of it, so that the server makes the change once (action-keys.server.ts).
 */
export const actionKeyField = "actionKey";

/** A new key, for a new submission (a retry of the same one reuses the key it had). */
export const newActionKey = (): string => crypto.randomUUID();
