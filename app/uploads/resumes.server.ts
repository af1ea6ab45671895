import { compiledOnce } from "~/db/compiled-once.server";
import { Readable } from "node:stream";
import { EVENTS, Server as TusServer, type ServerOptions } from "@tus/server";
import { databaseUploadLocker } from "./upload-locks.server";
import type { Db } from "~/db/database.server";
import { countUploadBytes } from "~/metrics/metrics.server";
import type { Logger } from "~/logging/logger.server";
import type { EventBus } from "~/realtime/bus.server";
import { userTopic } from "~/realtime/events";
import { hasControlCharacters } from "~/core/text";
import { hasResumeSignature } from "./file-signature.server";
import { newUploadId, uploadIdPattern, type IncomingUploads } from "./incoming-uploads.server";
import { resumeExtension, resumeMessages, resumeTypes } from "./resume-types";
import { newStorageKey, type StoredObject, type UploadStorage } from "./storage.server";
import { maxStoredFileNameLength, storedFileName } from "./stored-file-name";
import { swapStoredFile } from "./swap-stored-file.server";
import { attachmentDisposition } from "~/http/attachment";
import { writing } from "~/core/transaction.server";

export interface ResumeDeps {
  db: Db;
  storage: UploadStorage;
  bus: EventBus;
  logger?: Logger;
}

export interface ResumeView {
  fileName: string;
  size: number;
  contentType: string;
  uploadedAt: string;
}

export async function getResume(db: Db, learnerId: string): Promise<ResumeView | null> {
  const [row] = await resumeRow(db, learnerId);
  return row ? { ...row, size: Number(row.size) } : null;
}

const resumeRow = compiledOnce((db: Db, learnerId: string) =>
  db.selectFrom("resume").select(["fileName", "size", "contentType", "uploadedAt"]).where("learnerId", "=", learnerId),
);

/**
 * A finished file to make a resume: a local file (linked or copied into storage and left where
 * it is), or whatever stores it under the key it is given (a finished upload in the bucket).
 */
export type ResumeFile = { fileName: string; contentType: string } & (
  { path: string } | { storeAs(key: string): Promise<StoredObject> }
);

/**
 * Makes a finished, checked file the learner's resume. Order matters for "no orphans, no half
 * records": the file is put into storage under a new key first; the row is then replaced in one
 * transaction; only after it commits is the old file deleted. A failed transaction deletes the
 * new file, and the old resume stays exactly as it was.
 */
export async function replaceResume(
  deps: ResumeDeps,
  learnerId: string,
  file: ResumeFile,
  now = new Date(),
): Promise<ResumeView> {
  const extension = resumeExtension(file.fileName) ?? ".pdf";
  const key = newStorageKey(`resumes/${safeSegment(learnerId)}`, extension);
  const stored = "path" in file ? await deps.storage.putFile(key, file.path) : await file.storeAs(key);
  countUploadBytes("resume", stored.size);
  const view: ResumeView = {
    fileName: storedFileName(file.fileName, `resume${extension}`),
    size: stored.size,
    contentType: file.contentType,
    uploadedAt: now.toISOString(),
  };
  let previous: string | undefined;
  try {
    previous = await deps.db
      .transaction()
      .execute((trx) => swapStoredFile(trx, "resume", learnerId, { storageKey: key, ...view }));
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
  if (previous) await deleteQuietly(deps, previous);
  await deps.bus.publish(userTopic(learnerId), { type: "resume" });
  return view;
}

/** Removes the learner's resume: the row first (the truth), then its file. */
export async function deleteResume(deps: ResumeDeps, learnerId: string): Promise<boolean> {
  const row = await writing(deps.db, { people: [learnerId] }, (trx) =>
    trx.deleteFrom("resume").where("learnerId", "=", learnerId).returning("storageKey").executeTakeFirst(),
  );
  if (!row) return false;
  await deleteQuietly(deps, row.storageKey);
  await deps.bus.publish(userTopic(learnerId), { type: "resume" });
  return true;
}

async function deleteQuietly(deps: ResumeDeps, key: string) {
  await deps.storage.delete(key).catch((error: unknown) => {
    deps.logger?.error({ err: error, key }, "old resume file could not be deleted");
  });
}

function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
}

/** The learner's resume as an attachment (owner or staff only: the caller checks). */
export async function resumeDownloadResponse(deps: Pick<ResumeDeps, "db" | "storage">, learnerId: string) {
  const row = await deps.db
    .selectFrom("resume")
    .select(["storageKey", "fileName", "contentType"])
    .where("learnerId", "=", learnerId)
    .executeTakeFirst();
  const object = row ? await deps.storage.get(row.storageKey) : null;
  if (!row || !object) return Response.json({ message: "No resume has been uploaded." }, { status: 404 });
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

export interface ResumeUploadsOptions extends ResumeDeps {
  /** Where unfinished uploads wait: beside the storage, on its disk or in its bucket. */
  incoming: IncomingUploads;
  maxBytes: number;
  /** The URL path the tus endpoint is mounted at. */
  path: string;
  /** Uploads untouched for this long (unfinished, or finished but never turned into a resume) are deleted by cleanUp(). */
  expiryMs?: number;
}

export class TusRefusal extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body);
  }
}

/** An upload untouched this long is abandoned (a 10 MB resume takes minutes on a slow line). */
export const unfinishedUploadExpiryMs = 60 * 60_000;

/** How often abandoned uploads are looked for. */
export const uploadSweepIntervalMs = 10 * 60_000;

/** Reads tus's Upload-Metadata header ("key base64,key base64"). */
export function parseMetadata(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (header ?? "").split(",")) {
    const [key, value] = pair.trim().split(" ");
    if (!key) continue;
    map.set(key, value ? Buffer.from(value, "base64").toString("utf8") : "");
  }
  return map;
}

export function formatMetadata(map: Map<string, string>): string {
  return [...map].map(([k, v]) => `${k} ${Buffer.from(v, "utf8").toString("base64")}`).join(",");
}

/**
 * The resumable resume upload (tus 1.0 via @tus/server). Each upload belongs to the learner who
 * created it: the server writes the owner into the upload's metadata (any client-sent owner is
 * replaced) and every later request for that upload is checked against the signed-in learner.
 * The extension is checked at creation, the size against maxBytes, and the file's signature when
 * the last byte arrives; then it becomes the learner's resume through replaceResume.
 */
export function createResumeUploads(options: ResumeUploadsOptions) {
  const { incoming } = options;
  const expiryMs = options.expiryMs ?? unfinishedUploadExpiryMs;
  const store = incoming.datastore;

  /** Everything the upload left, and its tracking row. */
  const removeUpload = async (id: string) => {
    await incoming.remove(id);
    await options.db.deleteFrom("resume_upload").where("uploadId", "=", id).execute();
  };

  /** A learner's new upload replaces their unfinished one, whose files go at once. */
  const replaceUnfinished = async (learnerId: string, uploadId: string) => {
    const previous = await options.db
      .selectFrom("resume_upload")
      .select("uploadId")
      .where("learnerId", "=", learnerId)
      .executeTakeFirst();
    const createdAt = new Date().toISOString();
    await options.db
      .insertInto("resume_upload")
      .values({ learnerId, uploadId, createdAt })
      .onConflict((oc) => oc.column("learnerId").doUpdateSet({ uploadId, createdAt }))
      .execute();
    if (previous && previous.uploadId !== uploadId) await removeUpload(previous.uploadId);
  };
  const maxMb = Math.round((options.maxBytes / 1024 / 1024) * 10) / 10;

  const tus = new TusServer({
    path: options.path,
    datastore: store,
    relativeLocation: true,
    // Public ids in URLs and the database; the store may keep them under a longer name.
    namingFunction: () => incoming.storeId(newUploadId()),
    generateUrl: (_req, { path: base, id }) => `${base}/${incoming.uploadId(id)}`,
    getFileIdFromRequest: (_req, lastPath) =>
      lastPath && uploadIdPattern.test(lastPath) ? incoming.storeId(lastPath) : undefined,
    respectForwardedHeaders: false,
    maxSize: options.maxBytes,
    // Shared by every instance: a PATCH resent to another instance never writes beside the first.
    locker: databaseUploadLocker(options.db, options.bus),
    // A finished upload is being (or has been) made the resume: tus must not delete it meanwhile.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(_req, upload) {
      if (!resumeExtension(upload.metadata?.filename ?? "")) throw new TusRefusal(415, resumeMessages.wrongType);
      if (upload.metadata?.owner) await replaceUnfinished(upload.metadata.owner, incoming.uploadId(upload.id));
      return {};
    },
    onUploadFinish: finishUpload(options, removeUpload),
    onResponseError(_req, error) {
      if ("status_code" in error && error.status_code === 413) {
        return { status_code: 413, body: resumeMessages.tooLarge(maxMb) };
      }
      return undefined;
    },
  });

  // The stored resume is a hard link (or copy) of the finished upload, so tus's copy can go.
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
    removeUpload(incoming.uploadId(upload.id)).catch((error: unknown) =>
      options.logger?.warn({ err: error }, "finished upload not removed"),
    );
  });

  return {
    /** Where unfinished uploads wait (tests reach tus's store through it). */
    incoming,
    /** Handles one tus request for the signed-in learner. */
    async handle(request: Request, learnerId: string): Promise<Response> {
      const url = new URL(request.url);
      const rest = url.pathname.slice(options.path.length).replace(/^\/+/, "");
      if (request.method === "OPTIONS") return tus.handleWeb(request);
      if (rest === "") {
        const creation = checkedCreation(request, learnerId, options.maxBytes, maxMb);
        return creation instanceof Response ? creation : tus.handleWeb(creation);
      }
      if (!uploadIdPattern.test(rest)) return refuse(404, "Upload not found");
      if (request.method === "GET") return refuse(405, "Method not allowed");
      // Someone else's upload id answers exactly like a missing one.
      const upload = await store.getUpload(incoming.storeId(rest)).catch(() => null);
      if (!upload || upload.metadata?.owner !== learnerId) return refuse(404, "Upload not found");
      return tus.handleWeb(request);
    },
    /** Drops the learner's unfinished upload, if any (their account is being erased). */
    async discardFor(learnerId: string): Promise<void> {
      const unfinished = await options.db
        .selectFrom("resume_upload")
        .select("uploadId")
        .where("learnerId", "=", learnerId)
        .executeTakeFirst();
      if (unfinished) await removeUpload(unfinished.uploadId);
    },
    /**
     * Deletes every upload untouched for the expiry: unfinished ones, and finished ones a crash
     * left before they became a resume (a stored resume is a link or copy of its own, so it
     * stays). Returns how many.
     */
    async cleanUp(now = Date.now()): Promise<number> {
      let removed = 0;
      for (const { uploadId, touchedAt } of await incoming.list()) {
        if (now - touchedAt < expiryMs) continue;
        await removeUpload(uploadId);
        removed++;
      }
      return removed;
    },
  };
}

export type ResumeUploads = ReturnType<typeof createResumeUploads>;

export const refuse = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Tus-Resumable": "1.0.0" },
  });

/**
 * A new upload (POST), checked before tus sees it: its length, name and type. Returns the
 * request to hand to tus, with the signed-in learner as the upload's owner, or the refusal.
 */
function checkedCreation(request: Request, learnerId: string, maxBytes: number, maxMb: number): Request | Response {
  if (request.method !== "POST") return refuse(405, "Method not allowed");
  const length = Number(request.headers.get("upload-length"));
  if (!Number.isSafeInteger(length) || length < 0) return refuse(400, "Upload-Length is required.");
  if (length > maxBytes) return refuse(413, resumeMessages.tooLarge(maxMb));
  const metadata = parseMetadata(request.headers.get("upload-metadata"));
  // Concatenation is a tus extension this server doesn't offer (tus itself would answer 501).
  if (request.headers.has("upload-concat")) return refuse(400, "Upload-Concat is not supported.");
  const fileName = metadata.get("filename") ?? "";
  const badName = fileNameRefusal(fileName);
  if (badName) return badName;
  if (!resumeExtension(fileName)) return refuse(415, resumeMessages.wrongType);
  return ownedUploadStart(request, metadata, learnerId);
}

/** The refusal of an upload's file name, if any: it is stored and shown. */
export function fileNameRefusal(fileName: string): Response | null {
  // PostgreSQL refuses NUL, and nobody needs a longer name.
  if (fileName.length > maxStoredFileNameLength || hasControlCharacters(fileName)) {
    return refuse(400, "The file name is too long or has control characters. Please rename the file.");
  }
  return null;
}

/** The tus start request as the store sees it: its owner in the metadata, its length declared. */
export function ownedUploadStart(request: Request, metadata: Map<string, string>, ownerId: string): Request {
  metadata.set("owner", ownerId);
  const headers = new Headers(request.headers);
  headers.set("upload-metadata", formatMetadata(metadata));
  headers.delete("upload-defer-length");
  return new Request(request.url, {
    method: "POST",
    headers,
    body: request.body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

/**
 * When the last byte arrived: the file's type is checked against its signature and it becomes
 * the owner's resume; otherwise, or if that fails, the upload goes and tus answers the refusal.
 */
function finishUpload(
  options: ResumeUploadsOptions,
  removeUpload: (id: string) => Promise<void>,
): ServerOptions["onUploadFinish"] {
  const { incoming } = options;
  return async (_req, upload) => {
    const owner = upload.metadata?.owner;
    const fileName = upload.metadata?.filename ?? "";
    const extension = resumeExtension(fileName);
    const id = incoming.uploadId(upload.id);
    const discard = () => removeUpload(id).catch(() => {});
    if (!owner || !extension) {
      await discard();
      throw new TusRefusal(415, resumeMessages.wrongType);
    }
    if (!(await incoming.withBytes(id, (bytes) => hasResumeSignature(bytes, extension)))) {
      await discard();
      throw new TusRefusal(415, resumeMessages.notMatching);
    }
    try {
      await replaceResume(options, owner, {
        storeAs: (key) => incoming.keep(id, key),
        fileName,
        contentType: resumeTypes[extension],
      });
    } catch (error) {
      options.logger?.error({ err: error }, "resume could not be saved");
      await discard();
      throw new TusRefusal(500, "The resume could not be saved. Please try again.");
    }
    // tus still reads the upload while answering; it is removed once the answer is sent (POST_FINISH).
    return {};
  };
}
