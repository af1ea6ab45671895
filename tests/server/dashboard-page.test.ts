import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import type { LearnerState } from "~/learners/learner-state";
import { taskLinkMessages } from "~/learners/task-link-rules";
import { sendMessage, setOfferLetter, unreadCounts } from "~/messages/messages.server";
import { photoMessages } from "~/uploads/photo-rules";
import { replaceResume } from "~/uploads/resumes.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, samples, type Harness, type Learner } from "../support/test-app";
import { dayNumber } from "~/core/dates";

describe("Day N", () => {
  it("counts calendar days in the institute's time zone, sign-up day being day 1", () => {
    const tz = "Asia/Kolkata";
    // 23:00 in Kolkata on 1 March, then 00:30 on 2 March: a new day after 90 minutes.
    const created = new Date("2026-03-01T17:30:00Z");
    expect(dayNumber(created, new Date("2026-03-01T18:00:00Z"), tz)).toBe(1);
    expect(dayNumber(created, new Date("2026-03-01T19:00:00Z"), tz)).toBe(2);
    expect(dayNumber(created, new Date("2026-03-06T10:00:00Z"), tz)).toBe(6);
    // The same instants in UTC are still one day.
    expect(dayNumber(created, new Date("2026-03-01T19:00:00Z"), "UTC")).toBe(1);
  });
});

describe("learner configuration", () => {
  it("reads RESUME_MAX_MB and INSTITUTE_TZ with their defaults and refuses bad values", () => {
    const defaults = loadConfig({});
    expect([defaults.resumeMaxBytes, defaults.instituteTimeZone]).toEqual([10 * 1024 * 1024, "Asia/Kolkata"]);
    const set = loadConfig({ RESUME_MAX_MB: "2.5", INSTITUTE_TZ: "Europe/Berlin" });
    expect([set.resumeMaxBytes, set.instituteTimeZone]).toEqual([2.5 * 1024 * 1024, "Europe/Berlin"]);
    expect(() => loadConfig({ RESUME_MAX_MB: "0" })).toThrow(/RESUME_MAX_MB="0" is not valid/);
    expect(() => loadConfig({ RESUME_MAX_MB: "ten" })).toThrow(/RESUME_MAX_MB/);
    expect(() => loadConfig({ INSTITUTE_TZ: "Mars/Olympus" })).toThrow(
      /INSTITUTE_TZ="Mars\/Olympus" is not valid: expected an IANA time zone/,
    );
  });
});

describeEachDatabase("learner dashboard: loader, action and file routes", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let first: Learner;
  let second: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    first = await h.signUp("first");
    second = await h.signUp("second");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const dashboard = async (learner: Learner, address = "/dashboard") => {
    const page = await h.load<DashboardData>(learner, address);
    expect(page.status).toBe(200);
    return page.data;
  };
  const state = async (learner: Learner): Promise<LearnerState> => (await dashboard(learner)).learner;
  const addLink = (learner: Learner, link: string) => h.act(learner, "/dashboard", { intent: "add-task-link", link });

  it("sends the signed-out to log in, refuses their changes and files, and every unknown intent", async () => {
    for (const address of ["/dashboard", "/dashboard?show=notices", "/"]) {
      const page = await h.load(null, address);
      expect(page.status, address).toBe(302);
      expect(page.location).toBe(`/?auth=login&redirectTo=${encodeURIComponent(address)}`);
    }
    for (const intent of ["add-task-link", "delete-task-link", "delete-resume", "mark-read"]) {
      const refused = await h.act(null, "/dashboard", { intent, link: "https://example.com" });
      expect(refused.status, intent).toBe(401);
      expect(refused.data.message).toBe("Please log in.");
    }
    for (const [method, path] of [
      ["POST", "/api/learner/photo"],
      ["GET", "/api/learner/resume"],
      ["POST", "/api/learner/resume/upload"],
      ["GET", "/api/events"],
    ] as const) {
      expect((await h.call(null, method, path)).status, `${method} ${path}`).toBe(401);
    }
    const unknown = await h.act(first, "/dashboard", { intent: "become-admin" });
    expect(unknown.status).toBe(400);
    expect(unknown.data.message).toBe("Unknown action.");
    const notAForm = await h.act(first, "/dashboard", {}, { "content-type": "application/json" });
    expect(notAForm.status).toBe(400);
    expect((await state(first)).taskLinks).toEqual([]);
  });

  it("gives the greeting's name, Day N from createdAt, and the access level that shows the Admin button", async () => {
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString();
    await handle.db.updateTable("user").set({ createdAt: fiveDaysAgo }).where("id", "=", first.id).execute();
    const s = await state(first);
    expect(s).toMatchObject({
      username: "first",
      day: 6,
      photoUrl: null,
      unread: { notice: 0, task: 0, certificate: 0, offer: 0 },
      resume: null,
    });
    expect((await dashboard(first)).user.level).toBe("learner");
    expect((await state(second)).day).toBe(1);
    await h.setRole(second, "mentor");
    expect((await dashboard(second)).user.level).toBe("staff");
    await h.setRole(second, "admin");
    expect((await dashboard(second)).user.level).toBe("admin");
  });

  it("stores a photo as a metadata-free 256×256 WebP and refuses wrong types and sizes", async () => {
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret-camera-owner" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();

    const ok = await h.call(first, "POST", "/api/learner/photo", { body: jpeg });
    expect(ok.status).toBe(200);
    const { photoUrl } = (await ok.json()) as { photoUrl: string };
    expect(photoUrl).toMatch(/^\/api\/learner\/photos\/[0-9a-f]{32}\.webp$/);
    expect((await state(first)).photoUrl).toBe(photoUrl);

    const served = await h.call(null, "GET", photoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["webp", 256, 256, undefined]);
    expect(bytes.includes(Buffer.from("secret-camera-owner"))).toBe(false);

    // A GIF, a text file named .png and an oversized body are refused; the photo stays.
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    for (const body of [gif, Buffer.from("<svg onload=alert(1)>")]) {
      const refused = await h.call(first, "POST", "/api/learner/photo", {
        body,
        headers: { "content-type": "image/png" },
      });
      expect(refused.status).toBe(415);
      expect(await refused.json()).toEqual({ message: photoMessages.wrongType });
    }
    const big = await h.call(first, "POST", "/api/learner/photo", { body: Buffer.alloc(5 * 1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: photoMessages.tooLarge });
    expect((await state(first)).photoUrl).toBe(photoUrl);

    // Replacing deletes the old file; the old URL stops answering.
    const png = await sharp({ create: { width: 300, height: 900, channels: 4, background: "#ff0000" } })
      .png()
      .toBuffer();
    const replaced = (await (await h.call(first, "POST", "/api/learner/photo", { body: png })).json()) as {
      photoUrl: string;
    };
    expect(replaced.photoUrl).not.toBe(photoUrl);
    expect((await h.call(null, "GET", photoUrl)).status).toBe(404);
    expect((await h.files()).filter((f) => f.startsWith("uploads/photos/"))).toHaveLength(1);
  });

  it("validates, lists newest first and deletes task links", async () => {
    for (const [link, message] of [
      ["", taskLinkMessages.empty],
      ["   ", taskLinkMessages.empty],
      ["example.com/task", taskLinkMessages.invalid],
      ["javascript:alert(1)", taskLinkMessages.invalid],
      ["ftp://example.com/x", taskLinkMessages.invalid],
      [`https://example.com/${"a".repeat(2048)}`, taskLinkMessages.tooLong],
    ] as const) {
      const refused = await addLink(first, link);
      expect(refused.status, String(link)).toBe(400);
      expect(refused.data).toEqual({ ok: false, message });
    }
    const missing = await h.act(first, "/dashboard", { intent: "add-task-link" });
    expect(missing.data).toEqual({ ok: false, message: taskLinkMessages.empty });
    expect((await addLink(first, "  https://github.com/first/one  ")).data.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect((await addLink(first, "http://example.com/two")).data.ok).toBe(true);
    const exactly = `https://e.com/${"a".repeat(2048 - 14)}`;
    expect(exactly).toHaveLength(2048);
    await new Promise((r) => setTimeout(r, 5));
    expect((await addLink(first, exactly)).data.ok).toBe(true);
    const links = (await state(first)).taskLinks;
    expect(links.map((l) => l.link)).toEqual([exactly, "http://example.com/two", "https://github.com/first/one"]);

    const two = links[1]!.id;
    expect((await h.act(first, "/dashboard", { intent: "delete-task-link", id: two })).data.ok).toBe(true);
    expect((await state(first)).taskLinks.map((l) => l.link)).toEqual([exactly, "https://github.com/first/one"]);
    // Deleting it again (another tab) changes nothing and is not an error.
    expect((await h.act(first, "/dashboard", { intent: "delete-task-link", id: two })).status).toBe(200);
    expect((await state(first)).taskLinks).toHaveLength(2);
  });

  it("lists messages newest first, sanitized, with sender, and counts unread per kind", async () => {
    const deps = { db: handle.db, bus: h.bus };
    const t0 = Date.now();
    await sendMessage(deps, {
      learnerId: first.id,
      kind: "notice",
      html: "<p>Old</p>",
      sentBy: null,
      now: new Date(t0 - 60_000),
    });
    await sendMessage(deps, {
      learnerId: first.id,
      kind: "notice",
      html: `<b>New</b><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a><a href="https://ok.example">ok</a>`,
      sentBy: null,
      now: new Date(t0),
    });
    await sendMessage(deps, { learnerId: first.id, kind: "task", html: "<p>Task one</p>", sentBy: null });
    await sendMessage(deps, { learnerId: first.id, kind: "certificate", html: "<h2>Certified</h2>", sentBy: null });

    expect((await state(first)).unread).toEqual({ notice: 2, task: 1, certificate: 1, offer: 0 });
    const notices = (await dashboard(first, "/dashboard?show=notices")).popup!;
    expect(notices.items.map((m) => m.date)).toEqual([new Date(t0).toISOString(), new Date(t0 - 60_000).toISOString()]);
    expect(notices.items.map((m) => m.read)).toEqual([false, false]);
    const html = notices.items[0]!.html;
    expect(html).toContain("<b>New</b>");
    expect(html).not.toMatch(/script|onerror|javascript:|<img/i);
    expect(html).toContain('<a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
    expect((await dashboard(first, "/dashboard?show=tasks")).popup!.items).toHaveLength(1);
    expect((await dashboard(first, "/dashboard?show=certificates")).popup!.items).toHaveLength(1);
    // An unknown popup opens nothing.
    expect((await dashboard(first, "/dashboard?show=secret")).popup).toBeNull();

    expect(notices.items.map((m) => m.sentBy)).toEqual([null, null]);
    // Reading a popup marks nothing by itself: the page names what it showed.
    expect((await state(first)).unread).toEqual({ notice: 2, task: 1, certificate: 1, offer: 0 });
    const marked = await h.act(first, "/", { intent: "mark-read", kind: "notice", ids: notices.items[0]!.id });
    expect(marked.status).toBe(200);
    expect(await unreadCounts(handle.db, first.id)).toEqual({ notice: 1, task: 1, certificate: 1, offer: 0 });
  });

  it("shows the offer letter read-only, sanitized", async () => {
    expect((await dashboard(first, "/dashboard?show=offer-letter")).popup!.items).toEqual([]);
    await setOfferLetter(
      { db: handle.db, bus: h.bus },
      { learnerId: first.id, html: "<p>Welcome aboard</p><script>x()</script>", updatedBy: null },
    );
    await setOfferLetter(
      { db: handle.db, bus: h.bus },
      { learnerId: first.id, html: "<p>Welcome aboard, v2</p>", updatedBy: null },
    );
    const letter = (await dashboard(first, "/dashboard?show=offer-letter")).popup!;
    expect(letter.items.map((item) => item.html)).toEqual(["<p>Welcome aboard, v2</p>"]);
    // No intent lets a learner write it.
    const refused = await h.act(first, "/dashboard", { intent: "save-offer-letter", learnerId: first.id, html: "x" });
    expect(refused.status).toBe(400);
    expect((await dashboard(first, "/dashboard?show=offer-letter")).popup!.items[0]!.html).toBe(
      "<p>Welcome aboard, v2</p>",
    );
  });

  it("downloads the resume as an attachment with nosniff, and deletes it with its file", async () => {
    const file = `${h.dataDir}/incoming.pdf`;
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, samples.pdf());
    await replaceResume({ ...h.services, db: handle.db }, first.id, {
      path: file,
      fileName: "My CV – 2026.pdf",
      contentType: "application/pdf",
    });
    expect((await state(first)).resume).toMatchObject({ fileName: "My CV – 2026.pdf", size: 2048 });

    const download = await h.call(first, "GET", "/api/learner/resume");
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(
      /^attachment; filename="My CV _ 2026.pdf"; filename\*=UTF-8''My%20CV%20%E2%80%93%202026.pdf$/,
    );
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await download.arrayBuffer()).equals(samples.pdf())).toBe(true);

    // Staff (any role) may download a learner's resume; the learner is named by id.
    await handle.db.updateTable("user").set({ role: "mentor" }).where("id", "=", second.id).execute();
    const asStaff = await h.call(second, "GET", `/api/learner/resume?learner=${first.id}`);
    expect(asStaff.status).toBe(200);
    expect(asStaff.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(Buffer.from(await asStaff.arrayBuffer()).equals(samples.pdf())).toBe(true);

    expect((await h.act(first, "/dashboard", { intent: "delete-resume" })).data.ok).toBe(true);
    expect((await state(first)).resume).toBeNull();
    expect(await h.files()).toEqual([]);
    expect((await h.call(first, "GET", "/api/learner/resume")).status).toBe(404);
    // Deleting again (another tab did it first) is what the learner wanted.
    expect((await h.act(first, "/dashboard", { intent: "delete-resume" })).status).toBe(200);
  });

  it("never lets a second learner read, replace or delete the first learner's records by changing ids", async () => {
    const deps = { db: handle.db, bus: h.bus };
    const file = `${h.dataDir}/incoming.pdf`;
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, samples.pdf());
    await replaceResume({ ...h.services, db: handle.db }, first.id, {
      path: file,
      fileName: "first.pdf",
      contentType: "application/pdf",
    });
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#0f0" } })
      .png()
      .toBuffer();
    await h.call(first, "POST", "/api/learner/photo", { body: png });
    await addLink(first, "https://first.example");
    const [link] = (await state(first)).taskLinks;
    await sendMessage(deps, { learnerId: first.id, kind: "notice", html: "<p>for first only</p>", sentBy: null });
    await setOfferLetter(deps, { learnerId: first.id, html: "<p>first's offer</p>", updatedBy: null });
    const before = await state(first);

    // Reading: ids in the address are ignored or refused.
    const resume = await h.call(second, "GET", `/api/learner/resume?learner=${first.id}`);
    expect(resume.status).toBe(404);
    expect(await resume.text()).not.toContain("%PDF");
    const seen = await dashboard(second, `/dashboard?learner=${first.id}&learnerId=${first.id}`);
    expect(seen.learner).toMatchObject({
      username: "second",
      photoUrl: null,
      resume: null,
      taskLinks: [],
      unread: { notice: 0, task: 0, certificate: 0, offer: 0 },
    });
    for (const show of ["notices", "tasks", "certificates", "offer-letter"]) {
      expect((await dashboard(second, `/dashboard?show=${show}&learner=${first.id}`)).popup!.items).toEqual([]);
    }
    expect((await h.call(second, "GET", `/api/learner/photos/${first.id}.webp`)).status).toBe(404);

    // Changing: the second learner's requests touch only the second learner's records.
    expect((await h.act(second, "/dashboard", { intent: "delete-task-link", id: link!.id })).status).toBe(200);
    expect(
      (await h.act(second, `/dashboard?learner=${first.id}`, { intent: "delete-resume", learnerId: first.id })).status,
    ).toBe(200);
    const firstNotice = (await dashboard(first, "/dashboard?show=notices")).popup!.items[0]!.id;
    const firstLetter = (await dashboard(first, "/dashboard?show=offer-letter")).popup!.items[0]!.id;
    for (const [kind, id] of [
      ["notice", firstNotice],
      ["offer", firstLetter],
    ]) {
      const marked = await h.act(second, "/dashboard", {
        intent: "mark-read",
        kind: kind!,
        ids: id!,
        learnerId: first.id,
      });
      expect(marked.status).toBe(200);
    }
    expect(
      (await h.call(second, "POST", "/api/learner/photo", { body: png, headers: { "x-learner-id": first.id } })).status,
    ).toBe(200);

    const after = await state(first);
    expect(after).toEqual(before);
    expect(after.unread).toEqual({ notice: 1, task: 0, certificate: 0, offer: 1 });
    expect((await state(second)).photoUrl).not.toBe(before.photoUrl);
  });
});
