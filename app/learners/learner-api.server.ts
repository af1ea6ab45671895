import type { SessionUser } from "~/accounts/session.server";
import type { Config } from "~/config/config.server";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import {
  getOfferLetter,
  isMessageKind,
  listMessages,
  markNoticesRead,
  unreadNoticeCount,
} from "~/messages/messages.server";
import type { EventBus } from "~/realtime/bus.server";
import { photoMaxBytes, photoMessages } from "~/uploads/photo-rules";
import { photoResponse, profilePhotoUrl, readLimited, replaceProfilePhoto } from "~/uploads/photos.server";
import { deleteResume, getResume, resumeDownloadResponse, type ResumeUploads } from "~/uploads/resumes.server";
import type { UploadStorage } from "~/uploads/storage.server";
import { consumeAttempt, tooManyRequests, writeLimits } from "~/security/rate-limit.server";
import { hasControlCharacters } from "~/security/text";
import { dayNumber } from "./day-number";
import type { LearnerState } from "./learner-state";
import { addTaskLink, deleteTaskLink, listTaskLinks } from "./task-links.server";

export interface LearnerApiDeps {
  db: Db;
  config: Pick<Config, "appUrl" | "instituteTimeZone" | "resumeMaxBytes">;
  logger?: Logger;
  storage: UploadStorage;
  bus: EventBus;
  resumes: ResumeUploads;
  /** The signed-in user of a request, or null (better-auth's session in the app). */
  authenticate(request: Request): Promise<SessionUser | null>;
}

/** Where the API is mounted; the tus endpoint lives under it. */
export const learnerApiBase = "/api/learner";
export const resumeUploadPath = `${learnerApiBase}/resume/upload`;

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "private, no-store" } });
const problem = (status: number, message: string) => json({ message }, status);

/** Everything the dashboard shows, for one learner. */
export async function learnerState(
  deps: Pick<LearnerApiDeps, "db" | "config">,
  user: SessionUser,
  now = new Date(),
): Promise<LearnerState> {
  const [photoUrl, unreadNotices, resume, taskLinks] = await Promise.all([
    profilePhotoUrl(deps.db, user.id),
    unreadNoticeCount(deps.db, user.id),
    getResume(deps.db, user.id),
    listTaskLinks(deps.db, user.id),
  ]);
  return {
    username: user.username,
    isStaff: Boolean(user.role),
    day: dayNumber(new Date(user.createdAt), now, deps.config.instituteTimeZone),
    photoUrl,
    unreadNotices,
    resume,
    taskLinks,
    timeZone: deps.config.instituteTimeZone,
    resumeMaxMb: Math.round((deps.config.resumeMaxBytes / 1024 / 1024) * 10) / 10,
  };
}

/**
 * The learner dashboard's endpoints under /api/learner/. The learner is always the signed-in
 * user: no endpoint takes a learner id, so changing ids in a request can only name records the
 * query (`where learnerId = <session user>`) will not find. Staff may also download a learner's
 * resume (`GET resume?learner=<id>`).
 */
export function createLearnerApi(deps: LearnerApiDeps) {
  const messageDeps = { db: deps.db, bus: deps.bus };
  const foreignOrigin = (request: Request) => {
    const origin = request.headers.get("origin");
    return origin !== null && origin !== new URL(deps.config.appUrl).origin;
  };

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.slice(learnerApiBase.length).replace(/^\/+|\/+$/g, "");
    const method = request.method;

    // Photos are served by their unguessable name alone (img tags, staff cards).
    const photo = /^photos\/([^/]+)$/.exec(path);
    if (photo && (method === "GET" || method === "HEAD")) return photoResponse(deps.storage, photo[1]!);

    if (method !== "GET" && method !== "HEAD" && foreignOrigin(request)) {
      return problem(403, "This request came from another site and was refused.");
    }
    const user = await deps.authenticate(request);
    if (!user) return problem(401, "Please log in.");

    // Every change counts against the learner's budget; an upload's many PATCHes count once, at its start.
    const isUploadChunk = path.startsWith("resume/upload") && method !== "POST";
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && !isUploadChunk) {
      if (!(await consumeAttempt(deps.db, `learner-write:${user.id}`, writeLimits.learner))) {
        return problem(429, tooManyRequests);
      }
    }

    if (path === "resume/upload" || path.startsWith("resume/upload/")) return deps.resumes.handle(request, user.id);

    switch (`${method} ${path}`) {
      case "GET state":
        return json(await learnerState(deps, user));

      case "GET messages": {
        const kind = url.searchParams.get("kind");
        if (!isMessageKind(kind)) return problem(400, "Unknown message kind.");
        const page = await listMessages(deps.db, user.id, kind, url.searchParams.get("before") ?? undefined);
        return page ? json(page) : problem(400, "That page of messages does not exist.");
      }

      case "POST notices/read":
        await markNoticesRead(messageDeps, user.id);
        return json({ unreadNotices: 0 });

      case "GET offer-letter":
        return json({ offerLetter: await getOfferLetter(deps.db, user.id) });

      case "POST photo": {
        const declared = Number(request.headers.get("content-length") ?? "0");
        if (declared > photoMaxBytes) return problem(413, photoMessages.tooLarge);
        const bytes = await readLimited(request.body, photoMaxBytes);
        if (!bytes) return problem(413, photoMessages.tooLarge);
        if (bytes.length === 0) return problem(415, photoMessages.wrongType);
        const result = await replaceProfilePhoto(deps, user.id, bytes);
        return result.ok ? json({ photoUrl: result.url }) : problem(result.status, result.message);
      }

      case "GET resume":
      case "HEAD resume": {
        const asked = url.searchParams.get("learner");
        if (asked && (asked.length > 200 || hasControlCharacters(asked)))
          return problem(404, "No resume has been uploaded.");
        // Another learner's id is answered like a missing resume, never with its file.
        if (asked && asked !== user.id && !user.role) return problem(404, "No resume has been uploaded.");
        return resumeDownloadResponse(deps, asked ?? user.id);
      }

      case "DELETE resume":
        return (await deleteResume(deps, user.id))
          ? new Response(null, { status: 204 })
          : problem(404, "No resume has been uploaded.");

      case "GET task-links":
        return json({ taskLinks: await listTaskLinks(deps.db, user.id) });

      case "POST task-links": {
        let link: unknown;
        try {
          link = ((await request.json()) as { link?: unknown }).link;
        } catch {
          link = undefined;
        }
        const result = await addTaskLink(messageDeps, user.id, link);
        return result.ok ? json({ taskLink: result.taskLink }, 201) : problem(400, result.message);
      }
    }

    const taskLink = /^task-links\/([^/]+)$/.exec(path);
    if (taskLink && method === "DELETE") {
      const id = taskLink[1]!;
      if (id.length > 200 || hasControlCharacters(id)) return problem(404, "This link was not found.");
      return (await deleteTaskLink(messageDeps, user.id, id))
        ? new Response(null, { status: 204 })
        : problem(404, "This link was not found.");
    }
    return problem(404, "Not found");
  };
}
