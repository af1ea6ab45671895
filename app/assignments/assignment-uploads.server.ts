import { Readable } from "node:stream";
import { EVENTS, Server as TusServer } from "@tus/server";
import type { Db } from "~/db/database.server";
import { attachmentDisposition } from "~/http/attachment";
import type { Logger } from "~/logging/logger.server";
import type { EventBus } from "~/realtime/bus.server";
import { newUploadId, uploadIdPattern, type IncomingUploads } from "~/uploads/incoming-uploads.server";
import { fileNameRefusal, ownedUploadStart, parseMetadata, refuse, TusRefusal } from "~/uploads/resumes.server";
import { newStorageKey, type UploadStorage } from "~/uploads/storage.server";
import { storedFileName } from "~/uploads/stored-file-name";
import { databaseUploadLocker } from "~/uploads/upload-locks.server";
import { assignmentMessages as messages } from "./assignment-rules";
import { hasAssignmentFileSignature } from "./file-signature.server";
import { assignmentFileExtension, assignmentFileTypes } from "./file-types";
import { ownAssignment } from "./submissions.server";

// The file a learner hands in, through the same resumable (tus) uploads as resumes: checked by
// name and size when it starts, by its bytes when it ends, then kept in upload storage as an
// assignment_file whose id is the upload's id (the browser knows it from the upload's address).

export interface AssignmentUploadsOptions {
  db: Db;
  storage: UploadStorage;
  bus: EventBus;
  logger?: Logger;
  incoming: IncomingUploads;
  maxBytes: number;
  path: string;
}

export function createAssignmentUploads(options: AssignmentUploadsOptions) {
  const { incoming, db } = options;
  const maxMb = Math.round((options.maxBytes / 1024 / 1024) * 10) / 10;
  const removeUpload = (id: string) => incoming.remove(id).catch(() => {});

  const tus = new TusServer({
    path: options.path,
    datastore: incoming.datastore,
    relativeLocation: true,
    namingFunction: () => incoming.storeId(newUploadId()),
    generateUrl: (_req, { path: base, id }) => `${base}/${incoming.uploadId(id)}`,
    getFileIdFromRequest: (_req, lastPath) =>
      lastPath && uploadIdPattern.test(lastPath) ? incoming.storeId(lastPath) : undefined,
    respectForwardedHeaders: false,
    maxSize: options.maxBytes,
    locker: databaseUploadLocker(db, options.bus),
    disableTerminationForFinishedUploads: true,
    async onUploadFinish(_req, upload) {
      const id = incoming.uploadId(upload.id);
      const owner = upload.metadata?.owner ?? "";
      const assignmentId = upload.metadata?.assignment ?? "";
      const fileName = upload.metadata?.filename ?? "";
      const extension = assignmentFileExtension(fileName);
      if (!owner || !assignmentId || !extension) {
        await removeUpload(id);
        throw new TusRefusal(415, messages.wrongFileType);
      }
      if (!(await incoming.withBytes(id, (bytes) => hasAssignmentFileSignature(bytes, extension)))) {
        await removeUpload(id);
        throw new TusRefusal(415, messages.fileNotMatching);
      }
      const key = newStorageKey(`assignments/${assignmentId.replace(/[^A-Za-z0-9_-]/g, "_")}`, extension);
      try {
        const stored = await incoming.keep(id, key);
        await db
          .insertInto("assignment_file")
          .values({
            id,
            assignmentId,
            learnerId: owner,
            storageKey: key,
            fileName: storedFileName(fileName, `assignment${extension}`),
            contentType: assignmentFileTypes[extension],
            size: stored.size,
            createdAt: new Date().toISOString(),
          })
          .execute();
      } catch (error) {
        options.logger?.error({ err: error }, "assignment file could not be saved");
        await options.storage.delete(key).catch(() => {});
        await removeUpload(id);
        throw new TusRefusal(500, "The file could not be saved. Please try again.");
      }
      return {};
    },
    onResponseError(_req, error) {
      if ("status_code" in error && error.status_code === 413)
        return { status_code: 413, body: messages.tooLarge(maxMb) };
      return undefined;
    },
  });
  // The stored file is a link (or copy) of the finished upload, so tus's copy can go.
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
    void removeUpload(incoming.uploadId(upload.id));
  });

  /** A new upload, checked before tus sees it: its length, name, type and assignment. */
  async function checkedCreation(request: Request, learnerId: string): Promise<Request | Response> {
    if (request.method !== "POST") return refuse(405, "Method not allowed");
    const length = Number(request.headers.get("upload-length"));
    if (!Number.isSafeInteger(length) || length < 0) return refuse(400, "Upload-Length is required.");
    if (length > options.maxBytes) return refuse(413, messages.tooLarge(maxMb));
    if (request.headers.has("upload-concat")) return refuse(400, "Upload-Concat is not supported.");
    const metadata = parseMetadata(request.headers.get("upload-metadata"));
    const fileName = metadata.get("filename") ?? "";
    const badName = fileNameRefusal(fileName);
    if (badName) return badName;
    if (!assignmentFileExtension(fileName)) return refuse(415, messages.wrongFileType);
    const assignment = await ownAssignment(db, learnerId, metadata.get("assignment") ?? "");
    if (!assignment || assignment.handIn === "link") return refuse(404, messages.notFound);
    if (assignment.status === "accepted") return refuse(409, messages.accepted);
    return ownedUploadStart(request, metadata, learnerId);
  }

  return {
    /** Handles one tus request for the signed-in learner. */
    async handle(request: Request, learnerId: string): Promise<Response> {
      const rest = new URL(request.url).pathname.slice(options.path.length).replace(/^\/+/, "");
      if (request.method === "OPTIONS") return tus.handleWeb(request);
      if (rest === "") {
        const creation = await checkedCreation(request, learnerId);
        return creation instanceof Response ? creation : tus.handleWeb(creation);
      }
      if (!uploadIdPattern.test(rest)) return refuse(404, "Upload not found");
      if (request.method === "GET") return refuse(405, "Method not allowed");
      const upload = await incoming.datastore.getUpload(incoming.storeId(rest)).catch(() => null);
      if (!upload || upload.metadata?.owner !== learnerId) return refuse(404, "Upload not found");
      return tus.handleWeb(request);
    },
  };
}

export type AssignmentUploads = ReturnType<typeof createAssignmentUploads>;

/** A handed-in file as an attachment: for its learner, or staff (`learnerId` null). */
export async function assignmentFileResponse(
  deps: { db: Db; storage: UploadStorage },
  fileId: string,
  learnerId: string | null,
): Promise<Response> {
  const row = await deps.db
    .selectFrom("assignment_file")
    .select(["storageKey", "fileName", "contentType", "learnerId"])
    .where("id", "=", fileId)
    .executeTakeFirst();
  const visible = row && (learnerId === null || row.learnerId === learnerId);
  const object = visible ? await deps.storage.get(row.storageKey) : null;
  if (!row || !object) return Response.json({ message: "No such file." }, { status: 404 });
  return new Response(Readable.toWeb(object.stream) as ReadableStream, {
    headers: {
      "Content-Type": row.contentType,
      "Content-Disposition": attachmentDisposition(row.fileName),
      "Content-Length": String(object.size),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
