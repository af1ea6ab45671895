import { createHash, timingSafeEqual } from "node:crypto";
import { compiledOnce } from "~/db/compiled-once.server";
import type { Config } from "~/config/config.server";
import type { Db } from "~/db/database.server";
import { data, redirect } from "react-router";
import type { Auth } from "./auth.server";
import type { SessionCookieReader } from "./session-reader.server";
import { noteActivity } from "./activity.server";
import { isAnonymousRequest } from "~/http/anonymous-request";
import { consumeAttempt, tooManyRequests, writeLimits } from "~/security/rate-limit.server";
import { accessLevel, accessMessages, hasAccess, type AccessLevel } from "~/core/access";
import { sessionUserColumns, type SessionUser } from "~/core/people";
import { editableProfileFieldNames, type EditableProfile, type EditableProfileField } from "./sign-up-schema";

/** What the gate reads: the database, better-auth (to extend a session) and the cookie reader. */
export interface GateParts {
  db: Db;
  auth: Auth;
  sessionCookies: SessionCookieReader;
}

let provided: (() => Promise<GateParts>) | undefined;

/**
 * The composition root hands the gate its parts when it loads (app/platform/services.server.ts),
 * as it hands the mail queue its handlers: the gate does not reach up for the services.
 */
export function provideGateParts(parts: () => Promise<GateParts>): void {
  provided = parts;
}

function gateParts(): Promise<GateParts> {
  if (!provided) throw new Error("The permission gate has no parts: app/platform/services.server.ts provides them.");
  return provided();
}

/**
 * The signed-in user, or null. A request without a session cookie is anonymous at once,
 * without a database query (the public page is served to it from the shared cache). With one,
 * the session and its user are read from the database on every request (no cookie cache), so a
 * sign-out, revocation or role change applies at once, on every instance.
 */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  // The root loader (the staff header's count) and the page's loader ask for the same request:
  // one read serves both. Only for reads: after an action, loaders get a request of their own.
  if (request.method !== "GET" && request.method !== "HEAD") return readSessionUser(request);
  let pending = sessionUsers.get(request);
  if (!pending) {
    pending = readSessionUser(request);
    sessionUsers.set(request, pending);
  }
  return pending;
}

const sessionUsers = new WeakMap<Request, Promise<SessionUser | null>>();

async function readSessionUser(request: Request): Promise<SessionUser | null> {
  const cookieHeader = request.headers.get("cookie") ?? undefined;
  if (isAnonymousRequest(cookieHeader)) return null;
  const parts = await gateParts();
  const token = parts.sessionCookies.token(cookieHeader ?? "");
  if (token === null) return null;
  const [row] = await sessionRow(parts.db, token);
  return row ? userOfSession(request, row, parts) : null;
}

/**
 * Hands the gate the session as the request's kept-answer stamp read it (PostgreSQL reads it
 * with the stamp: KeptAnswerStamp's `session`), so that the render of a page not kept needs no
 * read of its own. The stamp was read for this request's own cookie, before anything else of it.
 */
export function sessionReadWithStamp(request: Request, session: Readonly<Record<string, unknown>>): void {
  if (request.method !== "GET" && request.method !== "HEAD") return;
  sessionUsers.set(
    request,
    gateParts().then((parts) => userOfSession(request, session as SessionRow, parts)),
  );
}

type SessionRow = Awaited<ReturnType<typeof sessionRow>>[number];

/** The signed-in user of a session row: null once it ended; extended by better-auth when due. */
async function userOfSession(request: Request, row: SessionRow, { auth, db, sessionCookies }: GateParts) {
  const left = new Date(row.expiresAt).getTime() - Date.now();
  if (left <= 0) return null;
  // Due for extension: better-auth extends it (and deletes it if it has just expired).
  if (left <= sessionCookies.refreshWhenLeftMs) return sessionUserFromAuth(auth, request);
  await noteActivity(db, row.id, row.lastActiveAt);
  return sessionUser({ ...row, username: row.username || row.name }, row.sessionId);
}

const sessionRow = compiledOnce((db: Db, token: string) =>
  db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select([
      "session.id as sessionId",
      "session.expiresAt",
      ...sessionUserColumns.map((column) => `user.${column}` as const),
    ])
    .where("session.token", "=", token),
);

/**
 * Until when an answer made for a session that ends at `sessionEndsAt` may be reused
 * (app/http/signed-in-responses.server.ts): its end less better-auth's refresh window, or null.
 */
export async function sessionReusableUntil(sessionEndsAt: number): Promise<number | null> {
  const { sessionCookies } = await gateParts();
  const until = sessionEndsAt - sessionCookies.refreshWhenLeftMs;
  return until > Date.now() ? until : null;
}

function sessionUser(
  user: {
    id: string;
    username: string;
    email: string;
    role?: string | null;
    createdAt: string | Date;
  } & Partial<Record<EditableProfileField, string | null>>,
  sessionId: string,
): SessionUser {
  const role = user.role ? user.role : null;
  return {
    id: user.id,
    sessionId,
    username: user.username,
    email: user.email,
    role,
    level: accessLevel(role),
    createdAt: new Date(user.createdAt).toISOString(),
    profile: Object.fromEntries(editableProfileFieldNames.map((name) => [name, user[name] ?? ""])) as EditableProfile,
  };
}

async function sessionUserFromAuth(auth: Auth, request: Request): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  return sessionUser({ ...user, username: user.username || user.name }, session.session.id);
}

export type Authorization = { ok: true; user: SessionUser } | { ok: false; status: 401 | 403 | 429; message: string };

/**
 * The gate: may this request's user do what needs `need`? Actions and resource routes answer a
 * refusal themselves (as data a form can show, or JSON); pages use requireUser/requireRole.
 */
export async function authorize(request: Request, need: AccessLevel = "learner"): Promise<Authorization> {
  const user = await getSessionUser(request);
  if (!user) return { ok: false, status: 401, message: accessMessages.signInRequired };
  if (hasAccess(user.level, need)) return { ok: true, user };
  return {
    ok: false,
    status: 403,
    message: need === "admin" && user.level === "staff" ? accessMessages.adminOnly : accessMessages.staffOnly,
  };
}

/**
 * The gate for a change: access as above, then one unit of the person's budget of changes per
 * minute (a learner's own changes, or staff work), counted in the database across instances.
 */
export async function authorizeChange(request: Request, need: AccessLevel = "learner"): Promise<Authorization> {
  const access = await authorize(request, need);
  if (!access.ok) return access;
  const budget = need === "learner" ? "learner" : "staff";
  const { db } = await gateParts();
  const allowed = await consumeAttempt(db, `${budget}-write:${access.user.id}`, writeLimits[budget]);
  return allowed ? access : { ok: false, status: 429, message: tooManyRequests };
}

/** Where an anonymous visitor to a signed-in page is sent: the login, then back here. */
export function loginPath(request: Request): string {
  const url = new URL(request.url);
  return `/?auth=login&redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** For a page's loader: the signed-in user; anonymous visitors are sent to log in. */
export async function requireUser(request: Request): Promise<SessionUser> {
  return requireRole(request, "learner");
}

/** For a page's loader: a user with this access; others get the 403 page. */
export async function requireRole(request: Request, need: AccessLevel): Promise<SessionUser> {
  const access = await authorize(request, need);
  if (access.ok) return access.user;
  if (access.status === 401) throw redirect(loginPath(request));
  throw data({ message: accessMessages.noAccessPage }, { status: 403 });
}

/**
 * The gate for a change sent as a form: access and one unit of the budget as authorizeChange,
 * then the form and its text fields, or the refusal to answer with.
 */
export async function authorizeFormChange(
  request: Request,
  need: AccessLevel,
): Promise<
  | { ok: true; user: SessionUser; form: FormData; fields: Record<string, string> }
  | { ok: false; refusal: ReturnType<typeof refuse> }
> {
  const access = await authorizeChange(request, need);
  if (!access.ok) return { ok: false, refusal: refuse(access.status, access.message) };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, refusal: refuse(400, "Send the form's fields.") };
  }
  return { ok: true, user: access.user, form, fields: textFields(form) };
}

/** A form's text fields by name (files left out; the last of a repeated name wins). */
export function textFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
  return fields;
}

/** An action's refusal: the message a form shows, with its status. */
export function refuse(status: number, message: string, extra: Record<string, unknown> = {}) {
  return data({ ok: false as const, message, ...extra }, { status, headers: { "Cache-Control": "private, no-store" } });
}

/** A resource route's refusal, as JSON (the gate's refusals, and the core's, e.g. a busy report). */
export { refuseJson } from "~/core/responses";

/** Is this a state-changing request from another site? Browsers send Origin on those. */
export function isForeignOrigin(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  return origin !== null && origin !== new URL(appUrl).origin;
}

const loopback = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const forwardingHeaders = [
  "forwarded",
  "x-forwarded-for",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
];

/**
 * The gate for /metrics, read by a scraper rather than a person. With METRICS_TOKEN: only
 * `Authorization: Bearer <token>` (compared in constant time), else 401, since the right token
 * would work. Without one: only a request whose socket is this machine's and that carries no
 * forwarding header, TRUST_PROXY's included (a proxy on the same host would make every visitor
 * look local), else 404, as if there were nothing here.
 * Metrics turned off (METRICS=off): 404 for everyone.
 */
export function authorizeMetrics(
  request: Request,
  socketAddress: string,
  config: Pick<Config, "metrics" | "metricsToken" | "trustProxyHeader">,
): { ok: true } | { ok: false; status: 401 | 404 } {
  if (!config.metrics) return { ok: false, status: 404 };
  if (config.metricsToken) {
    const sent = /^Bearer (\S{1,512})$/i.exec(request.headers.get("authorization")?.slice(0, 600) ?? "")?.[1] ?? "";
    // Digests, so that the comparison takes the same time whatever the length sent.
    const digest = (value: string) => createHash("sha256").update(value).digest();
    const matches = timingSafeEqual(digest(sent), digest(config.metricsToken));
    return matches && sent !== "" ? { ok: true } : { ok: false, status: 401 };
  }
  const forwarded = [...forwardingHeaders, config.trustProxyHeader].some((name) => name && request.headers.has(name));
  return loopback.test(socketAddress) && !forwarded ? { ok: true } : { ok: false, status: 404 };
}
