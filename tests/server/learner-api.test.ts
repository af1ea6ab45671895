import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import { dayNumber } from "~/learners/day-number";
import type { LearnerState } from "~/learners/learner-state";
import { taskLinkMessages } from "~/learners/task-link-rules";
import { sendMessage, setOfferLetter, unreadNoticeCount } from "~/messages/messages.server";
import { photoMessages } from "~/uploads/photo-rules";
import { replaceResume } from "~/uploads/resumes.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, samples, type Harness, type Learner } from "./learner-harness";

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

describeEachDatabase("learner API", (database) => {
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

  const state = async (learner: Learner) => {
    const response = await h.call(learner, "GET", "/api/learner/state");
    expect(response.status).toBe(200);
    return (await response.json()) as LearnerState;
  };

  it("refuses every endpoint without a session, and state changes from a foreign origin", async () => {
    for (const [method, path] of [
      ["GET", "/api/learner/state"],
      ["GET", "/api/learner/messages?kind=notice"],
      ["POST", "/api/learner/notices/read"],
      ["GET", "/api/learner/offer-letter"],
      ["POST", "/api/learner/photo"],
      ["GET", "/api/learner/resume"],
      ["DELETE", "/api/learner/resume"],
      ["GET", "/api/learner/task-links"],
      ["POST", "/api/learner/task-links"],
      ["DELETE", "/api/learner/task-links/x"],
      ["POST", "/api/learner/resume/upload"],
    ] as const) {
      expect((await h.call(null, method, path)).status, `${method} ${path}`).toBe(401);
    }
    const foreign = await h.call(first, "POST", "/api/learner/task-links", {
      json: { link: "https://example.com" },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await state(first)).taskLinks).toEqual([]);
  });

  it("gives the greeting's name, Day N from createdAt, and the Admin flag only with a role", async () => {
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString();
    await handle.db.updateTable("user").set({ createdAt: fiveDaysAgo }).where("id", "=", first.id).execute();
    const s = await state(first);
    expect(s).toMatchObject({
      username: "first",
      day: 6,
      isStaff: false,
      photoUrl: null,
      unreadNotices: 0,
      resume: null,
    });
    expect((await state(second)).day).toBe(1);
    await handle.db.updateTable("user").set({ role: "mentor" }).where("id", "=", second.id).execute();
    expect((await state(second)).isStaff).toBe(true);
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
    expect(h.files().filter((f) => f.startsWith("uploads/photos/"))).toHaveLength(1);
  });

  it("validates, lists newest first and deletes task links", async () => {
    const post = (link: unknown) => h.call(first, "POST", "/api/learner/task-links", { json: { link } });
    for (const [link, message] of [
      ["", taskLinkMessages.empty],
      ["   ", taskLinkMessages.empty],
      [undefined, taskLinkMessages.empty],
      ["example.com/task", taskLinkMessages.invalid],
      ["javascript:alert(1)", taskLinkMessages.invalid],
      ["ftp://example.com/x", taskLinkMessages.invalid],
      [`https://example.com/${"a".repeat(2048)}`, taskLinkMessages.tooLong],
    ] as const) {
      const response = await post(link);
      expect(response.status, String(link)).toBe(400);
      expect(await response.json()).toEqual({ message });
    }
    const a = await post("  https://github.com/first/one  ");
    expect(a.status).toBe(201);
    await new Promise((r) => setTimeout(r, 5));
    const b = await post("http://example.com/two");
    const exactly = `https://e.com/${"a".repeat(2048 - 14)}`;
    expect(exactly).toHaveLength(2048);
    await new Promise((r) => setTimeout(r, 5));
    expect((await post(exactly)).status).toBe(201);
    const links = (await state(first)).taskLinks;
    expect(links.map((l) => l.link)).toEqual([exactly, "http://example.com/two", "https://github.com/first/one"]);

    const listed = (await (await h.call(first, "GET", "/api/learner/task-links")).json()) as { taskLinks: unknown[] };
    expect(listed.taskLinks).toEqual(links);
    const { taskLink } = (await b.json()) as { taskLink: { id: string } };
    expect((await h.call(first, "DELETE", `/api/learner/task-links/${taskLink.id}`)).status).toBe(204);
    expect((await state(first)).taskLinks.map((l) => l.link)).toEqual([exactly, "https://github.com/first/one"]);
    expect((await h.call(first, "DELETE", `/api/learner/task-links/${taskLink.id}`)).status).toBe(404);
  });

  it("lists messages newest first, sanitized, counts unread notices and marks them read", async () => {
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

    expect((await state(first)).unreadNotices).toBe(2);
    const notices = (await (await h.call(first, "GET", "/api/learner/messages?kind=notice")).json()) as {
      messages: { html: string; sentAt: string }[];
    };
    expect(notices.messages.map((m) => m.sentAt)).toEqual([
      new Date(t0).toISOString(),
      new Date(t0 - 60_000).toISOString(),
    ]);
    const html = notices.messages[0]!.html;
    expect(html).toContain("<b>New</b>");
    expect(html).not.toMatch(/script|onerror|javascript:|<img/i);
    expect(html).toContain('<a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
    const tasks = (await (await h.call(first, "GET", "/api/learner/messages?kind=task")).json()) as {
      messages: unknown[];
    };
    expect(tasks.messages).toHaveLength(1);
    expect((await h.call(first, "GET", "/api/learner/messages?kind=secret")).status).toBe(400);

    expect((await h.call(first, "POST", "/api/learner/notices/read")).status).toBe(200);
    expect(await unreadNoticeCount(handle.db, first.id)).toBe(0);
    expect((await state(first)).unreadNotices).toBe(0);
  });

  it("shows the offer letter read-only, sanitized", async () => {
    expect(await (await h.call(first, "GET", "/api/learner/offer-letter")).json()).toEqual({ offerLetter: null });
    await setOfferLetter(
      { db: handle.db, bus: h.bus },
      { learnerId: first.id, html: "<p>Welcome aboard</p><script>x()</script>", updatedBy: null },
    );
    await setOfferLetter(
      { db: handle.db, bus: h.bus },
      { learnerId: first.id, html: "<p>Welcome aboard, v2</p>", updatedBy: null },
    );
    const { offerLetter } = (await (await h.call(first, "GET", "/api/learner/offer-letter")).json()) as {
      offerLetter: { html: string };
    };
    expect(offerLetter.html).toBe("<p>Welcome aboard, v2</p>");
    // No endpoint lets a learner write it.
    for (const method of ["POST", "PUT", "DELETE"]) {
      expect((await h.call(first, method, "/api/learner/offer-letter", { json: { html: "x" } })).status).toBe(404);
    }
  });

  it("downloads the resume as an attachment with nosniff, and deletes it with its file", async () => {
    const file = `${h.dataDir}/incoming.pdf`;
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, samples.pdf());
    await replaceResume(h.deps, first.id, { path: file, fileName: "My CV – 2026.pdf", contentType: "application/pdf" });
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

    expect((await h.call(first, "DELETE", "/api/learner/resume")).status).toBe(204);
    expect((await state(first)).resume).toBeNull();
    expect(h.files()).toEqual([]);
    expect((await h.call(first, "GET", "/api/learner/resume")).status).toBe(404);
    expect((await h.call(first, "DELETE", "/api/learner/resume")).status).toBe(404);
  });

  it("never lets a second learner read, replace or delete the first learner's records by changing ids", async () => {
    const deps = { db: handle.db, bus: h.bus };
    const file = `${h.dataDir}/incoming.pdf`;
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, samples.pdf());
    await replaceResume(h.deps, first.id, { path: file, fileName: "first.pdf", contentType: "application/pdf" });
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#0f0" } })
      .png()
      .toBuffer();
    await h.call(first, "POST", "/api/learner/photo", { body: png });
    const link = (await (
      await h.call(first, "POST", "/api/learner/task-links", { json: { link: "https://first.example" } })
    ).json()) as {
      taskLink: { id: string };
    };
    await sendMessage(deps, { learnerId: first.id, kind: "notice", html: "<p>for first only</p>", sentBy: null });
    await setOfferLetter(deps, { learnerId: first.id, html: "<p>first's offer</p>", updatedBy: null });
    const before = await state(first);

    // Reading: ids in the query, path or body are ignored or refused.
    const asSecond = (method: string, path: string, init?: Parameters<Harness["call"]>[3]) =>
      h.call(second, method, path, init);
    const resume = await asSecond("GET", `/api/learner/resume?learner=${first.id}`);
    expect(resume.status).toBe(404);
    expect(await resume.text()).not.toContain("%PDF");
    expect(
      (await asSecond("GET", `/api/learner/state?learner=${first.id}`).then((r) => r.json())) as LearnerState,
    ).toMatchObject({
      username: "second",
      photoUrl: null,
      resume: null,
      taskLinks: [],
      unreadNotices: 0,
    });
    expect(await (await asSecond("GET", `/api/learner/task-links?learner=${first.id}`)).json()).toEqual({
      taskLinks: [],
    });
    for (const kind of ["notice", "task", "certificate"]) {
      const r = (await (await asSecond("GET", `/api/learner/messages?kind=${kind}&learnerId=${first.id}`)).json()) as {
        messages: unknown[];
      };
      expect(r.messages).toEqual([]);
    }
    expect(await (await asSecond("GET", `/api/learner/offer-letter?learner=${first.id}`)).json()).toEqual({
      offerLetter: null,
    });
    expect((await asSecond("GET", `/api/learner/photos/${first.id}.webp`)).status).toBe(404);

    // Changing: the second learner's requests touch only the second learner's records.
    expect((await asSecond("DELETE", `/api/learner/task-links/${link.taskLink.id}`)).status).toBe(404);
    expect((await asSecond("DELETE", `/api/learner/resume?learner=${first.id}`)).status).toBe(404);
    expect((await asSecond("POST", `/api/learner/notices/read?learner=${first.id}`)).status).toBe(200);
    expect(
      (await asSecond("POST", "/api/learner/photo", { body: png, headers: { "x-learner-id": first.id } })).status,
    ).toBe(200);

    const after = await state(first);
    expect(after).toEqual(before);
    expect(after.unreadNotices).toBe(1);
    expect((await state(second)).photoUrl).not.toBe(before.photoUrl);
  });
});
