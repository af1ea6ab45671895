// The one factory of the server tests: the app's own services (buildServices) on a real
// database (SQLite or PostgreSQL), real better-auth sessions, real upload storage (on disk, or
// in a real S3-compatible server's bucket: describeEachStorage); the
// pages' loaders and actions and the file routes called directly, and a real HTTP server in
// front of the file routes and the event stream for the tests that need one (tus, streams).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { Readable } from "node:stream";
import type { DestinationStream } from "pino";
import { handleAuthRequest } from "~/accounts/auth-handler.server";
import type { Auth } from "~/accounts/auth.server";
import type { SessionUser } from "~/core/people";
import { loadConfig, type Config } from "~/config/config.server";
import { dashboardAction, loadDashboard } from "~/dashboard/dashboard-page.server";
import { loadSettings, settingsAction } from "~/dashboard/settings-page.server";
import { createLogger } from "~/logging/logger.server";
import type { MailWorkerOptions } from "~/mail/mail-queue.server";
import { buildServices, provideServices, type Services } from "~/platform/services.server";
import { InProcessBus, type EventBus } from "~/realtime/bus.server";
import { loadAudit, loadLearnerPage, loadStaffWorkspace, staffAction, loadPeople } from "~/staff/staff-page.server";
import type { StreamRegistry } from "~/realtime/stream-registry.server";
import { userEventStream } from "~/realtime/user-stream.server";
import * as eventsRoute from "~/routes/api.events";
import * as documentPdfRoute from "~/routes/api.documents.$code.pdf";
import * as photoRoute from "~/routes/api.learner.photo";
import * as offerFileRoute from "~/routes/api.placement.offers.$id.file";
import * as photosRoute from "~/routes/api.learner.photos.$name";
import * as resumeRoute from "~/routes/api.learner.resume";
import * as uploadRoute from "~/routes/api.learner.resume.upload.$";
import * as assignmentUploadRoute from "~/routes/api.assignments.upload.$";
import * as assignmentFileRoute from "~/routes/api.assignments.files.$id";
import type { UploadStorage } from "~/uploads/storage.server";
import { loadBatches, loadBoard } from "~/placement/board-page.server";
import { loadBatch } from "~/batches/batch-page.server";
import { loadLearnerPlacementForStaff, loadMyPlacement, myPlacementAction } from "~/placement/placement-page.server";
import type { TestDatabaseHandle } from "./databases";
import { disk, type TestStorage } from "./storages";

export const appUrl = "http://localhost:3999";

export interface Learner {
  id: string;
  email: string;
  username: string;
  cookie: string;
}

/** What a loader or action gave: its status, its data, and for a redirect where it leads. */
export interface Outcome<T> {
  status: number;
  data: T;
  location?: string;
}

/** What `data(value, init)` makes: a loader's answer with its status. */
function isDataWithResponseInit(value: unknown): boolean {
  return Boolean(value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit");
}

/** A loader's or action's result, returned or thrown, as an Outcome. */
export async function outcome<T>(run: () => Promise<unknown>): Promise<Outcome<T>> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    // What a loader throws on purpose is an answer; anything else the server would answer 500.
    if (!(thrown instanceof Response) && !isDataWithResponseInit(thrown)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const location = result.headers.get("location") ?? undefined;
    const text = await result.text();
    const json = result.headers.get("content-type")?.includes("json") || /^[[{"]/.test(text);
    return { status: result.status, location, data: (text && json ? JSON.parse(text) : text || undefined) as T };
  }
  if (isDataWithResponseInit(result)) {
    const init = (result as { init?: ResponseInit | null }).init;
    return { status: init?.status ?? 200, data: (result as { data: T }).data };
  }
  return { status: 200, data: result as T };
}

export interface Harness {
  handle: TestDatabaseHandle;
  config: Config;
  dataDir: string;
  auth: Auth;
  storage: UploadStorage;
  bus: EventBus;
  /** This harness's open event streams (as one instance holds them). */
  streams: StreamRegistry;
  services: Services;
  /** Answers a request as the app's routes would: the file routes, the events, and the dashboard's state. */
  api: (request: Request) => Promise<Response>;
  signUp(username: string, options?: { course?: string }): Promise<Learner>;
  /** Gives a user a role (null: a learner again), as `npm run role` does. */
  setRole(user: Learner, role: string | null): Promise<void>;
  /**
   * Runs a page's loader for this address as this user (null: signed out): its data, or what
   * it threw (a redirect's status and location; a refusal's status and message).
   */
  load<T>(user: Learner | null, address: string): Promise<Outcome<T>>;
  /** Submits a form to a page's action (`/`, `/dashboard`, `/settings`, `/staff…`) as this user. */
  act(
    user: Learner | null,
    address: string,
    /** A FormData is sent as multipart (a form with a file). */
    fields: Record<string, string> | FormData,
    headers?: Record<string, string>,
  ): Promise<Outcome<{ ok: boolean; message: string; count?: number }>>;
  /** A request as this learner (null: signed out). */
  call(
    learner: Learner | null,
    method: string,
    apiPath: string,
    init?: { body?: BodyInit; json?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Starts a real HTTP server in front of the API and /api/events. */
  listen(options?: { heartbeatMs?: number }): Promise<{ url: string; close(): Promise<void> }>;
  /**
   * Everything in upload storage (`uploads/<key>`) and what tus keeps of unfinished uploads
   * (`uploads-incoming/<name>`), read past the app: files on disk, or objects in the bucket.
   */
  files(): Promise<string[]>;
  /**
   * The files once tus has dropped its copy of finished uploads (it does so right after
   * answering, so a client can be a few milliseconds ahead of it).
   */
  settledFiles(): Promise<string[]>;
  dispose(): Promise<void>;
}

/**
 * Who signs the documents a harness issues, unless the test says otherwise: a name holding no
 * test learner's (the erasure test looks for learners' names in every table).
 */
export const testSignatory = { name: "Hemant Joshi", title: "Director" };

export async function createHarness(
  handle: TestDatabaseHandle,
  options: {
    resumeMaxMb?: number;
    bus?: EventBus;
    logDestination?: DestinationStream;
    /** More settings (SMTP_URL, DIGEST_HOUR…). */
    env?: Record<string, string>;
    /** The mail worker's timings; it stays stopped (tests run its rounds) unless `start: true`. */
    mailWorker?: Partial<MailWorkerOptions> & { start?: boolean };
    /** Where uploads are stored (describeEachStorage); the local disk by default. */
    storage?: TestStorage;
    /**
     * Who signs documents, as an admin would have set it (no documents are issued until then);
     * `null` leaves it unset, as on a fresh install.
     */
    signatory?: { name: string; title: string } | null;
  } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-learner-"));
  const createdAt = Date.now();
  const store = await (options.storage ?? disk).open(dataDir);
  const config = loadConfig({
    APP_URL: appUrl,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: "1000",
    RESUME_MAX_MB: String(options.resumeMaxMb ?? 10),
    ...store.env,
    ...options.env,
  });
  // With a destination, everything is logged to it (a test reads what the logs would hold).
  const logger = options.logDestination ? createLogger("debug", options.logDestination) : createLogger("silent");
  // A bus the test passes in is the test's to close.
  const bus: EventBus = options.bus
    ? Object.assign(Object.create(options.bus) as EventBus, { close: async () => {} })
    : new InProcessBus(logger);
  // The database belongs to the test (it disposes of it): the services leave it open.
  const services = await buildServices({
    config,
    logger,
    database: { ...handle, close: async () => {} },
    bus,
    mailWorker: { start: false, ...options.mailWorker },
  });
  provideServices(services);
  const { auth, streams } = services;
  const { storage } = services;
  const signatory = options.signatory === undefined ? testSignatory : options.signatory;
  if (signatory) {
    await handle.db
      .insertInto("document_settings")
      .values({
        id: 1,
        signatoryName: signatory.name,
        signatoryTitle: signatory.title,
        signatureKey: null,
        updatedBy: null,
        updatedAt: new Date().toISOString(),
      })
      // A second instance on the same database finds the first's signatory in place.
      .onConflict((conflict) => conflict.column("id").doNothing())
      .execute();
  }

  /** The app's routes for the paths these tests use (one module graph, the real loaders and actions). */
  const api = async (request: Request, heartbeatMs?: number): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const args = { request, params: {}, context: {} } as never;
    const isRead = request.method === "GET" || request.method === "HEAD";
    if (pathname === "/api/events") {
      if (heartbeatMs === undefined) return eventsRoute.loader(args);
      const user = await services.auth.api.getSession({ headers: request.headers });
      if (!user) return new Response("Please log in.", { status: 401 });
      const { getSessionUser } = await import("~/accounts/permissions.server");
      const sessionUser = (await getSessionUser(request)) as SessionUser;
      return userEventStream({ bus, streams, user: sessionUser, signal: request.signal, heartbeatMs });
    }
    if (pathname === "/api/learner/resume/upload" || pathname.startsWith("/api/learner/resume/upload/")) {
      return isRead ? uploadRoute.loader(args) : uploadRoute.action(args);
    }
    if (pathname === "/api/learner/resume") return resumeRoute.loader(args);
    if (pathname === "/api/assignments/upload" || pathname.startsWith("/api/assignments/upload/")) {
      return isRead ? assignmentUploadRoute.loader(args) : assignmentUploadRoute.action(args);
    }
    const assignmentFile = /^\/api\/assignments\/files\/([^/]+)$/.exec(pathname);
    if (assignmentFile) {
      return assignmentFileRoute.loader({
        request,
        params: { id: decodeURIComponent(assignmentFile[1]!) },
        context: {},
      } as never);
    }
    if (pathname === "/api/learner/photo") return photoRoute.action(args);
    const documentPdf = /^\/api\/documents\/([^/]+)\/pdf$/.exec(pathname);
    if (documentPdf) {
      return documentPdfRoute.loader({
        request,
        params: { code: decodeURIComponent(documentPdf[1]!) },
        context: {},
      } as never);
    }
    const offerLetter = /^\/api\/placement\/offers\/([^/]+)\/file$/.exec(pathname);
    if (offerLetter) {
      return offerFileRoute.loader({
        request,
        params: { id: decodeURIComponent(offerLetter[1]!) },
        context: {},
      } as never);
    }
    const photo = /^\/api\/learner\/photos\/([^/]+)$/.exec(pathname);
    if (photo) return photosRoute.loader({ request, params: { name: photo[1] }, context: {} } as never);
    if (pathname === "/api/learner/state") {
      try {
        return Response.json((await loadDashboard(request)).learner);
      } catch (thrown) {
        if (thrown instanceof Response) return new Response(null, { status: 401 });
        throw thrown;
      }
    }
    return new Response("Not found", { status: 404 });
  };
  let ip = 1;

  const harness: Harness = {
    handle,
    config,
    dataDir,
    auth,
    storage,
    bus,
    streams,
    services,
    api,
    async setRole(user, role) {
      await handle.db.updateTable("user").set({ role }).where("id", "=", user.id).execute();
    },
    load(user, address) {
      const request = new Request(`${appUrl}${address}`, { headers: user ? { cookie: user.cookie } : {} });
      const { pathname } = new URL(request.url);
      const learnerPage = /^\/staff\/learners\/([^/]+)$/.exec(pathname);
      const placementPage = /^\/staff\/placement\/([^/]+)$/.exec(pathname);
      const batchPage = /^\/staff\/batches\/([^/]+)$/.exec(pathname);
      return outcome(() => {
        if (pathname === "/placement") return loadMyPlacement(request);
        if (pathname === "/staff/placement") return loadBoard(request);
        if (pathname === "/staff/batches") return loadBatches(request);
        if (batchPage) return loadBatch(request, decodeURIComponent(batchPage[1]!));
        if (placementPage) return loadLearnerPlacementForStaff(request, decodeURIComponent(placementPage[1]!));
        if (pathname === "/" || pathname === "/dashboard") return loadDashboard(request);
        if (pathname === "/settings") return loadSettings(request);
        if (pathname === "/staff") return loadStaffWorkspace(request);
        if (pathname === "/staff/audit") return loadAudit(request);
        if (pathname === "/staff/people") return loadPeople(request);
        if (learnerPage) return loadLearnerPage(request, decodeURIComponent(learnerPage[1]!));
        throw new Error(`no loader for ${address} in the harness`);
      });
    },
    async act(user, address, fields, headers = {}) {
      // Multipart as the bytes a browser sends (a FormData body streams from a generator that
      // undici keeps feeding after the action stops reading at its limit).
      const multipart = fields instanceof FormData ? new Response(fields) : null;
      const request = new Request(`${appUrl}${address}`, {
        method: "POST",
        headers: {
          origin: appUrl,
          ...(user ? { cookie: user.cookie } : {}),
          ...(multipart ? { "content-type": multipart.headers.get("content-type") ?? "" } : {}),
          ...headers,
        },
        body: multipart
          ? new Uint8Array(await multipart.arrayBuffer())
          : new URLSearchParams(fields as Record<string, string>),
      });
      const { pathname } = new URL(request.url);
      return outcome(() => {
        if (pathname === "/placement") return myPlacementAction(request);
        if (pathname === "/settings") return settingsAction(request);
        return pathname.startsWith("/staff") ? staffAction(request) : dashboardAction(request);
      });
    },
    async signUp(username, signUpOptions = {}) {
      const email = `${username.toLowerCase()}@example.com`;
      const response = await handleAuthRequest(
        auth,
        new Request(`${appUrl}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: appUrl, "x-upskill-client-ip": `198.51.100.${ip++}` },
          body: JSON.stringify({
            username,
            phone: "9876543210",
            course: signUpOptions.course ?? "Python",
            gender: "female",
            email,
            password: "correct-horse-1",
            confirmPassword: "correct-horse-1",
          }),
        }),
      );
      if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
      const cookie = response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const user = await handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      return { id: user.id, email, username, cookie };
    },
    call(learner, method, apiPath, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (learner) headers.cookie = learner.cookie;
      let body = init.body;
      if (init.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.json);
      }
      return api(new Request(`${appUrl}${apiPath}`, { method, headers, body }));
    },
    async listen(listenOptions = {}) {
      const server = http.createServer((req, res) => {
        void serve(req, res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500);
          res.end(String(error));
        });
      });
      const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
        const controller = new AbortController();
        res.on("close", () => controller.abort());
        const method = req.method ?? "GET";
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        const request = new Request(new URL(req.url ?? "/", appUrl), {
          method,
          headers,
          signal: controller.signal,
          ...(method === "GET" || method === "HEAD"
            ? {}
            : { body: Readable.toWeb(req) as ReadableStream, duplex: "half" }),
        } as RequestInit);
        const response = await api(request, listenOptions.heartbeatMs);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body || method === "HEAD") return void res.end();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
        res.end();
      };
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const { port } = server.address() as { port: number };
      return {
        url: `http://127.0.0.1:${port}`,
        async close() {
          server.closeAllConnections();
          server.close();
          await once(server, "close");
        },
      };
    },
    files: () => store.list(),
    async settledFiles() {
      const deadline = Date.now() + 2_000;
      let files = await store.list();
      while (files.some((f) => f.startsWith("uploads-incoming")) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        files = await store.list();
      }
      return files;
    },
    async dispose() {
      await services.close();
      await store.dispose();
      // tus's file store creates its directory again in the background when it starts (and
      // throws if that fails). That is done well within 100 ms of the start: only a test
      // shorter than that waits for it before the directory goes.
      const pendingMs = createdAt + 100 - Date.now();
      if (pendingMs > 0) await new Promise((resolve) => setTimeout(resolve, pendingMs));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Test documents with real signatures. */
export const samples = {
  pdf: (size = 2048) => Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(Math.max(0, size - 9), 0x20)]),
  doc: (size = 2048) =>
    Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(size - 8, 0)]),
  /** A minimal .docx: a stored (uncompressed) zip whose only entry is word/document.xml. */
  docx: () => zipOf("word/document.xml", Buffer.from("<w:document/>")),
  /** A zip that is not a Word document. */
  plainZip: () => zipOf("notes.txt", Buffer.from("hello")),
};

function zipOf(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}
