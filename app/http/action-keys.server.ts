import type { MiddlewareFunction } from "react-router";
import { getSessionUser } from "~/accounts/permissions.server";
import type { Db } from "~/db/database.server";
import { getServices } from "~/platform/services.server";
import { actionKeyField } from "./action-key";
import { cspNonceContext } from "./csp";

/** How long a change's key and its first answer are kept: a retry comes within minutes. */
export const actionKeyKeptMs = 24 * 3_600_000;

/** A first request still running after this long died with its instance: a retry takes over. */
const abandonedAfterMs = 2 * 60_000;

/** How long a retry waits for the first request (still running) to answer. */
const waitForFirstMs = 10_000;

/** Answers larger than this are not kept (no change answers with that much). */
const maxKeptBodyChars = 1_000_000;

const keyPattern = /^[A-Za-z0-9_-]{16,64}$/;

// Only plain form posts: reading an upload's multipart body here would hold a whole file (up to
// the upload limits) in memory before the action's own streaming parser and its limits run.
const formBody = /^application\/x-www-form-urlencoded\b/i;

/**
 * Every change sent with a key (the `actionKey` field) is made once: the first request claims
 * the key for its user (or, signed out, for its path), and its answer is kept; a request with
 * the same key gets that answer again, with nothing done. Refusals and failures are not kept,
 * since nothing was done: a retry is tried afresh. A route middleware, so every action has it.
 */
export const answerOnce: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const type = request.headers.get("content-type") ?? "";
  if (request.method !== "POST" || !formBody.test(type)) return next();
  let key: FormDataEntryValue | null;
  try {
    key = (await request.clone().formData()).get(actionKeyField);
  } catch {
    // The action reads the body itself and answers what is wrong with it.
    return next();
  }
  if (typeof key !== "string" || key === "") return next();
  if (!keyPattern.test(key)) {
    throw Response.json(
      { message: "The form's change key is not valid. Reload the page and try again." },
      { status: 400, headers: { "Cache-Control": "private, no-store" } },
    );
  }
  const user = await getSessionUser(request);
  const owner = user ? user.id : `anonymous ${new URL(request.url).pathname}`;
  const { database } = await getServices();
  const db = database.db;
  const nonce = context.get(cspNonceContext);

  if (!(await claim(db, owner, key))) {
    const first = await firstAnswer(db, owner, key, nonce);
    if (first) return first;
    // The first request failed and let go of the key, so nothing was done: this one does it.
    if (!(await claim(db, owner, key))) throw Response.json(stillRunning, { status: 409, headers: noStore });
  }
  const forget = () => db.deleteFrom("action_key").where("owner", "=", owner).where("key", "=", key).execute();
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    await forget();
    throw error;
  }
  const body = await response.text();
  const answer = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  if (response.status >= 400 || body.length > maxKeptBodyChars) {
    await forget();
    return answer;
  }
  // Cookies are the first answer's alone (a new session is not handed out twice).
  const headers = [...response.headers].filter(([name]) => name !== "set-cookie" && name !== "content-length");
  await db
    .updateTable("action_key")
    .set({ state: "answered", status: response.status, headers: JSON.stringify(headers), body, nonce })
    .where("owner", "=", owner)
    .where("key", "=", key)
    .execute();
  return answer;
};

/** Takes the key for this request: true when no other request has it (or one that died had it). */
async function claim(db: Db, owner: string, key: string): Promise<boolean> {
  const now = Date.now();
  const inserted = await db
    .insertInto("action_key")
    .values({ owner, key, state: "running", createdAt: now })
    .onConflict((conflict) => conflict.columns(["owner", "key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  const takenOver = await db
    .updateTable("action_key")
    .set({ createdAt: now })
    .where("owner", "=", owner)
    .where("key", "=", key)
    .where("state", "=", "running")
    .where("createdAt", "<", now - abandonedAfterMs)
    .executeTakeFirst();
  return Number(takenOver.numUpdatedRows) > 0;
}

/** The first answer to this key, once the request that has it answers; null if it let go of it. */
async function firstAnswer(db: Db, owner: string, key: string, nonce: string | null): Promise<Response | null> {
  const until = Date.now() + waitForFirstMs;
  for (;;) {
    const row = await db
      .selectFrom("action_key")
      .select(["state", "status", "headers", "body", "nonce"])
      .where("owner", "=", owner)
      .where("key", "=", key)
      .executeTakeFirst();
    if (row?.state === "answered") {
      const body = row.nonce && nonce ? (row.body ?? "").split(row.nonce).join(nonce) : (row.body ?? "");
      return new Response(body, {
        status: row.status ?? 200,
        headers: JSON.parse(row.headers ?? "[]") as [string, string][],
      });
    }
    if (!row) return null;
    if (Date.now() > until) throw Response.json(stillRunning, { status: 409, headers: noStore });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const noStore = { "Cache-Control": "private, no-store" };
const stillRunning = { message: "This change is still being made. Try again in a moment." };

/** Deletes the keys older than a day; returns how many. */
export async function purgeOldActionKeys(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom("action_key")
    .where("createdAt", "<", now - actionKeyKeptMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
