import type { z } from "zod";
import { isForeignOrigin } from "~/accounts/auth-handler.server";
import type { Auth } from "~/accounts/auth.server";
import type { Db } from "~/db/database.server";
import { getOfferLetter } from "~/messages/messages.server";
import type { EventBus } from "~/realtime/bus.server";
import { consumeAttempt, tooManyRequests, writeLimits, type Limit } from "~/security/rate-limit.server";
import { hasControlCharacters } from "~/security/text";
import { latestAudit, type Actor } from "./audit.server";
import { countLearners, learnerCard, learnerCourses, searchLearners } from "./search.server";
import {
  changeRole,
  clearForLearner,
  saveOfferLetter,
  sendToLearner,
  sendToMatching,
  type ActionResult,
} from "./staff-actions.server";
import {
  bulkSendSchema,
  clearSchema,
  offerLetterSchema,
  roleSchema,
  searchSchema,
  sendSchema,
  staffLevel,
  staffMessages,
  type StaffLevel,
} from "./staff-types";

export interface StaffHttpDeps {
  db: Db;
  bus: EventBus;
  auth: Auth;
  appUrl: string;
}

/** Who asks: null when signed out. The role is read from the database on every request. */
async function currentActor(deps: StaffHttpDeps, request: Request): Promise<(Actor & { level: StaffLevel }) | null> {
  const session = await deps.auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const user = await deps.db
    .selectFrom("user")
    .select(["id", "username", "email", "role"])
    .where("id", "=", session.user.id)
    .executeTakeFirst();
  if (!user) return null;
  return { id: user.id, name: user.username || user.email, role: user.role ?? "", level: staffLevel(user.role) };
}

const noStore = { "cache-control": "no-store" };

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: noStore });
}

function fail(status: number, message: string): Response {
  return json({ message }, status);
}

function answer<T extends object>(result: ActionResult<T>): Response {
  if (!result.ok) return fail(result.status, result.message);
  return json(result);
}

async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S> | Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return fail(400, "The request body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? "Invalid request.");
  return parsed.data;
}

type Need = "staff" | "admin";

interface Endpoint {
  method: "GET" | "POST" | "PUT";
  /** The path under /api/staff/, with `:id` for a user id. */
  pattern: RegExp;
  need: Need;
  /** A stricter limit of its own, on top of every staff member's write limit. */
  ownLimit?: { name: string; limit: Limit };
  /** The text a staff member gets instead of the generic refusal (clearing). */
  staffRefusal?: (request: Request) => Promise<string>;
  run(deps: StaffHttpDeps, actor: Actor, request: Request, params: string[]): Promise<Response>;
}

/** The search, filter and page from the query string; an unusable one is answered with 400. */
function searchParams(request: Request): z.infer<typeof searchSchema> | Response {
  const parsed = searchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  return parsed.success ? parsed.data : fail(400, parsed.error.issues[0]?.message ?? "Invalid search.");
}

/** Every staff endpoint, with who may call it. The server decides; the view only mirrors it. */
export const staffEndpoints: Endpoint[] = [
  {
    method: "GET",
    pattern: /^learners$/,
    need: "staff",
    async run({ db }, _actor, request) {
      const query = searchParams(request);
      if (query instanceof Response) return query;
      return json(await searchLearners(db, { search: query.search, course: query.course }, query.page));
    },
  },
  {
    method: "GET",
    pattern: /^learners\/([^/]+)$/,
    need: "staff",
    async run({ db }, _actor, _request, [id]) {
      const card = await learnerCard(db, id!);
      return card ? json({ learner: card }) : fail(404, staffMessages.notALearner);
    },
  },
  {
    method: "GET",
    pattern: /^courses$/,
    need: "staff",
    async run({ db }) {
      return json({ courses: await learnerCourses(db) });
    },
  },
  {
    method: "GET",
    pattern: /^count$/,
    need: "staff",
    async run({ db }, _actor, request) {
      const query = searchParams(request);
      if (query instanceof Response) return query;
      return json({ count: await countLearners(db, { search: query.search, course: query.course }) });
    },
  },
  {
    method: "POST",
    pattern: /^send$/,
    need: "staff",
    async run(deps, actor, request) {
      const input = await readBody(request, sendSchema);
      return input instanceof Response ? input : answer(await sendToLearner(deps, actor, input));
    },
  },
  {
    method: "POST",
    pattern: /^bulk-send$/,
    need: "staff",
    ownLimit: { name: "bulk-send", limit: writeLimits.bulkSend },
    async run(deps, actor, request) {
      const input = await readBody(request, bulkSendSchema);
      return input instanceof Response ? input : answer(await sendToMatching(deps, actor, input));
    },
  },
  {
    method: "POST",
    pattern: /^clear$/,
    need: "admin",
    async staffRefusal(request) {
      const parsed = clearSchema.safeParse(await request.json().catch(() => null));
      return staffMessages.noClearPermission(parsed.success ? parsed.data.kind : "notice");
    },
    async run(deps, actor, request) {
      const input = await readBody(request, clearSchema);
      return input instanceof Response ? input : answer(await clearForLearner(deps, actor, input));
    },
  },
  {
    method: "GET",
    pattern: /^offer-letter\/([^/]+)$/,
    need: "admin",
    async run({ db }, _actor, _request, [id]) {
      return json({ offerLetter: await getOfferLetter(db, id!) });
    },
  },
  {
    method: "PUT",
    pattern: /^offer-letter$/,
    need: "admin",
    async run(deps, actor, request) {
      const input = await readBody(request, offerLetterSchema);
      return input instanceof Response ? input : answer(await saveOfferLetter(deps, actor, input));
    },
  },
  {
    method: "POST",
    pattern: /^role$/,
    need: "admin",
    async run(deps, actor, request) {
      const input = await readBody(request, roleSchema);
      return input instanceof Response ? input : answer(await changeRole(deps, actor, input));
    },
  },
  {
    method: "GET",
    pattern: /^audit$/,
    need: "admin",
    async run({ db }) {
      return json({ entries: await latestAudit(db, 200) });
    },
  },
];

/**
 * Answers a request under /api/staff/. Order: unknown path 404; foreign Origin on a state change
 * 403; signed out 401; a learner 403; staff on an admin endpoint 403 (with the clear texts).
 */
export async function handleStaffRequest(deps: StaffHttpDeps, request: Request, path: string): Promise<Response> {
  const matching = staffEndpoints
    .map((endpoint) => ({ endpoint, match: endpoint.pattern.exec(path) }))
    .filter((m) => m.match !== null);
  if (matching.length === 0) return fail(404, "Not found.");
  const method = request.method === "HEAD" ? "GET" : request.method;
  const found = matching.find((m) => m.endpoint.method === method);
  if (!found) {
    const allow = [...new Set(matching.map((m) => m.endpoint.method))].join(", ");
    return new Response(JSON.stringify({ message: "Method not allowed." }), {
      status: 405,
      headers: { allow, "content-type": "application/json", ...noStore },
    });
  }
  const { endpoint, match } = found;
  if (method !== "GET" && isForeignOrigin(request, deps.appUrl)) return fail(403, staffMessages.foreignOrigin);

  const actor = await currentActor(deps, request);
  if (!actor) return fail(401, staffMessages.signInRequired);
  if (actor.level === "learner") return fail(403, staffMessages.staffOnly);
  if (endpoint.need === "admin" && actor.level !== "admin") {
    return fail(403, endpoint.staffRefusal ? await endpoint.staffRefusal(request) : staffMessages.adminOnly);
  }
  let params: string[];
  try {
    params = match!.slice(1).map(decodeURIComponent);
  } catch {
    return fail(400, "Malformed address.");
  }
  if (params.some((param) => param.length > 200 || hasControlCharacters(param))) {
    return fail(404, staffMessages.notALearner);
  }
  if (method !== "GET") {
    const allowed =
      (await consumeAttempt(deps.db, `staff-write:${actor.id}`, writeLimits.staff)) &&
      (!endpoint.ownLimit ||
        (await consumeAttempt(deps.db, `${endpoint.ownLimit.name}:${actor.id}`, endpoint.ownLimit.limit)));
    if (!allowed) return fail(429, tooManyRequests);
  }
  return endpoint.run(deps, actor, request, params);
}
