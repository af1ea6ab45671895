import http from "node:http";
import { once } from "node:events";
import { afterEach, beforeEach, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import { formTimeToken } from "~/enquiries/enquiry-form-page.server";
import { actionKeyField, newActionKey } from "~/http/action-key";
import { actionKeyKeptMs, answerOnce, purgeOldActionKeys } from "~/http/action-keys.server";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import * as contactRoute from "~/routes/contact";
import * as dashboardRoute from "~/routes/dashboard";
import * as staffRoute from "~/routes/staff";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

const routes: Record<string, { action(args: never): Promise<unknown> }> = {
  "/contact": contactRoute,
  "/dashboard": dashboardRoute,
  "/staff": staffRoute,
};

/** An action's result as the answer a router sends: a Response as it is, data as JSON. */
function asResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result && typeof result === "object" && (result as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init?: ResponseInit | null };
    return Response.json(data, init ?? undefined);
  }
  return Response.json(result);
}

describeEachDatabase("change keys: a change sent again is made once", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  let staff: Learner;
  let server: http.Server;
  let port: number;
  let actionsRun: number;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    learner = await h.signUp("Leena");
    staff = await h.signUp("Suresh");
    await h.setRole(staff, "mentor");
    actionsRun = 0;
    // The page actions behind the key middleware, as the router runs them; the action takes a
    // while, so that the first answer is lost while the change is still being made.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        const url = new URL(req.url ?? "/", appUrl);
        const request = new Request(url, { method: "POST", headers, body: Buffer.concat(chunks) });
        const next = async () => {
          actionsRun += 1;
          await new Promise((resolve) => setTimeout(resolve, 200));
          const route = routes[url.pathname]!;
          const args = { request, params: {}, context: new RouterContextProvider() } as never;
          return asResponse(await route.action(args).catch((thrown: unknown) => thrown));
        };
        const args = { request, params: {}, context: new RouterContextProvider(), pattern: url.pathname };
        void (answerOnce(args as never, next) as Promise<Response>)
          .catch((thrown: unknown) => asResponse(thrown))
          .then(async (response) => {
            if (res.destroyed) return;
            res.writeHead(response.status, Object.fromEntries(response.headers));
            res.end(Buffer.from(await response.arrayBuffer()));
          });
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    server.close();
    await h.dispose();
    await handle.dispose();
  });

  /** Sends the form and drops the connection as soon as the request is out: the answer is lost. */
  const sendAndDrop = async (user: Learner | null, path: string, fields: Record<string, string>) => {
    const request = http.request({ port, path, method: "POST", headers: headersFor(user) });
    const lost = new Promise<void>((resolve) => request.on("error", () => resolve()).on("close", () => resolve()));
    request.end(new URLSearchParams(fields).toString(), () => request.destroy());
    await lost;
  };
  const send = async (user: Learner | null, path: string, fields: Record<string, string>) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: "POST",
      headers: headersFor(user),
      body: new URLSearchParams(fields),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const headersFor = (user: Learner | null) => ({
    "content-type": "application/x-www-form-urlencoded",
    origin: appUrl,
    [CLIENT_IP_HEADER]: "203.0.113.7",
    ...(user ? { cookie: user.cookie } : {}),
  });

  it("a notice whose answer was lost, sent again, is stored once and answered as the first time", async () => {
    const fields = { intent: "send", learnerId: learner.id, kind: "notice", html: "<p>Hi</p>" };
    const key = newActionKey();
    await sendAndDrop(staff, "/staff", { ...fields, [actionKeyField]: key });
    const again = await send(staff, "/staff", { ...fields, [actionKeyField]: key });
    expect(again).toMatchObject({ status: 200, body: { ok: true } });
    const notices = await handle.db.selectFrom("message").select("id").where("kind", "=", "notice").execute();
    expect(notices).toHaveLength(1);
    expect(actionsRun).toBe(1);
    // The same key from someone else is theirs: it names nothing of this user's.
    const otherStaff = await h.signUp("Sunita");
    await h.setRole(otherStaff, "mentor");
    expect((await send(otherStaff, "/staff", { ...fields, [actionKeyField]: key })).status).toBe(200);
    expect(await handle.db.selectFrom("message").select("id").execute()).toHaveLength(2);
    // A new submission (a new key) is a new change.
    expect((await send(staff, "/staff", { ...fields, [actionKeyField]: newActionKey() })).status).toBe(200);
    expect(await handle.db.selectFrom("message").select("id").execute()).toHaveLength(3);
  });

  it("a task link whose answer was lost, sent again, is stored once", async () => {
    const fields = { intent: "add-task-link", link: "https://github.com/leena/one", [actionKeyField]: newActionKey() };
    await sendAndDrop(learner, "/dashboard", fields);
    expect(await send(learner, "/dashboard", fields)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await send(learner, "/dashboard", fields)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await handle.db.selectFrom("task_link").select("id").execute()).toHaveLength(1);
    expect(actionsRun).toBe(1);
  });

  it("an enquiry whose answer was lost, sent again, is stored once", async () => {
    const fields = {
      intent: "enquiry",
      website: "",
      name: "Meera Kulkarni",
      phone: "9876543210",
      email: "meera@example.com",
      course: "Web Development",
      message: "Is there an evening batch?",
      callbackTime: "evening",
      formTime: formTimeToken(h.services.unsubscribeKey, Date.now() - 5_000),
      [actionKeyField]: newActionKey(),
    };
    await sendAndDrop(null, "/contact", fields);
    expect(await send(null, "/contact", fields)).toMatchObject({ status: 200, body: { step: "sent" } });
    expect(await handle.db.selectFrom("enquiry").select("id").execute()).toHaveLength(1);
  });

  it("a refusal is not kept: the same key, with the fields put right, makes the change", async () => {
    const key = newActionKey();
    const refused = await send(learner, "/dashboard", { intent: "add-task-link", link: "", [actionKeyField]: key });
    expect(refused.status).toBe(400);
    const fixed = { intent: "add-task-link", link: "https://github.com/leena/two", [actionKeyField]: key };
    expect((await send(learner, "/dashboard", fixed)).status).toBe(200);
    expect(await handle.db.selectFrom("task_link").select("id").execute()).toHaveLength(1);
  });

  it("refuses a malformed key with 400 and a message, before any change", async () => {
    const refused = await send(learner, "/dashboard", {
      intent: "add-task-link",
      link: "https://github.com/leena/three",
      [actionKeyField]: "x".repeat(65),
    });
    expect(refused).toEqual({ status: 400, body: { message: expect.stringMatching(/key is not valid/) } });
    expect(actionsRun).toBe(0);
  });

  it("forgets keys after a day (the periodic purge)", async () => {
    const fields = { intent: "add-task-link", link: "https://github.com/leena/four", [actionKeyField]: newActionKey() };
    await send(learner, "/dashboard", fields);
    expect(await purgeOldActionKeys(handle.db, Date.now() + actionKeyKeptMs - 60_000)).toBe(0);
    expect(await purgeOldActionKeys(handle.db, Date.now() + actionKeyKeptMs + 1)).toBe(1);
    expect(await handle.db.selectFrom("action_key").select("key").execute()).toEqual([]);
  });
});
