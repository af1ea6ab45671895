import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { createHash } from "node:crypto";
import { Upload } from "@tus/server";
import * as tus from "tus-js-client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { LearnerState } from "~/learners/learner-state";
import { replaceProfilePhoto } from "~/uploads/photos.server";
import { resumeMessages } from "~/uploads/resume-types";
import { replaceResume } from "~/uploads/resumes.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { describeEachStorage } from "../support/storages";
import { createHarness, samples, type Harness, type Learner } from "../support/test-app";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

interface Outcome {
  ok: boolean;
  status?: number;
  body?: string;
  url: string | null;
  /** The Upload-Offset of each PATCH sent. */
  offsets: number[];
}

describeEachStorage("learner resume uploads (tus)", (storage) =>
  describeEachDatabase("database", (database) => {
    let handle: TestDatabaseHandle;
    let h: Harness;
    let server: { url: string; close(): Promise<void> };
    let first: Learner;
    let second: Learner;
    let third: Learner;

    beforeEach(async () => {
      handle = await database.open();
      h = await createHarness(handle, { resumeMaxMb: 2, storage });
      server = await h.listen();
      first = await h.signUp("first");
      second = await h.signUp("second");
      third = await h.signUp("third");
    });
    afterEach(async () => {
      await server.close();
      await h.dispose();
      await handle.dispose();
    });

    /** Uploads with tus-js-client from Node over real HTTP; stopAt aborts once that share is sent. */
    const upload = (
      learner: Learner,
      data: Buffer,
      fileName: string,
      options: { uploadUrl?: string | null; stopAt?: number } = {},
    ) =>
      new Promise<Outcome>((resolve) => {
        const offsets: number[] = [];
        let stopped = false;
        const u: tus.Upload = new tus.Upload(data, {
          endpoint: `${server.url}/api/learner/resume/upload`,
          uploadUrl: options.uploadUrl ?? null,
          chunkSize: 128 * 1024,
          retryDelays: null,
          metadata: { filename: fileName, filetype: "application/octet-stream" },
          headers: { cookie: learner.cookie },
          onBeforeRequest(req) {
            if (req.getMethod() === "PATCH") offsets.push(Number(req.getHeader("Upload-Offset")));
          },
          onProgress(sent, total) {
            if (options.stopAt && !stopped && sent / total >= options.stopAt) {
              stopped = true;
              // Drop the connection mid-upload, as a lost network or a closed tab would.
              void u.abort().then(() => resolve({ ok: false, url: u.url, offsets }));
            }
          },
          onSuccess: () => resolve({ ok: true, url: u.url, offsets }),
          onError(error) {
            const response = (error as tus.DetailedError).originalResponse;
            resolve({ ok: false, status: response?.getStatus(), body: response?.getBody(), url: u.url, offsets });
          },
        });
        u.start();
      });

    const state = async (learner: Learner) =>
      (await (await h.call(learner, "GET", "/api/learner/state")).json()) as LearnerState;
    const download = async (learner: Learner) =>
      Buffer.from(await (await h.call(learner, "GET", "/api/learner/resume")).arrayBuffer());

    it("resumes an interrupted upload from where it stopped, and stores exactly the file sent", async () => {
      const data = samples.pdf(1536 * 1024 + 17);
      for (let i = 9; i < data.length; i++) data[i] = (i * 31 + (i >> 7)) & 0xff;

      const interrupted = await upload(first, data, "cv.pdf", { stopAt: 0.4 });
      expect(interrupted.ok).toBe(false);
      expect(interrupted.url).toMatch(/\/api\/learner\/resume\/upload\/[0-9a-f]{32}$/);
      expect((await state(first)).resume).toBeNull();

      // The server kept what arrived; a HEAD says how much.
      const head = await fetch(interrupted.url!, {
        method: "HEAD",
        headers: { cookie: first.cookie, "Tus-Resumable": "1.0.0" },
      });
      const offset = Number(head.headers.get("upload-offset"));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(data.length);

      // Another learner cannot see, continue or delete it: it answers as if it did not exist.
      for (const method of ["HEAD", "PATCH", "DELETE"]) {
        const r = await fetch(interrupted.url!, {
          method,
          headers: {
            cookie: second.cookie,
            "Tus-Resumable": "1.0.0",
            "Upload-Offset": String(offset),
            "Content-Type": "application/offset+octet-stream",
          },
          body: method === "PATCH" ? data.subarray(offset) : undefined,
        });
        expect(r.status, method).toBe(404);
      }
      const attempt = await upload(second, data, "cv.pdf", { uploadUrl: interrupted.url });
      expect(attempt.ok).toBe(true); // tus-js-client falls back to a new upload of its own
      expect(attempt.url).not.toBe(interrupted.url);

      const resumed = await upload(first, data, "cv.pdf", { uploadUrl: interrupted.url });
      expect(resumed.ok).toBe(true);
      expect(resumed.url).toBe(interrupted.url);
      expect(resumed.offsets[0]).toBe(offset);

      const s = await state(first);
      expect(s.resume).toMatchObject({ fileName: "cv.pdf", size: data.length, contentType: "application/pdf" });
      expect(sha256(await download(first))).toBe(sha256(data));
      // Two stored files: the first learner's and the second's own fallback upload; nothing unfinished.
      const files = await h.settledFiles();
      expect(files.filter((f) => f.startsWith("uploads-incoming"))).toEqual([]);
      expect(files.filter((f) => f.startsWith("uploads/resumes/"))).toHaveLength(2);
    });

    it("replaces the old resume and deletes its file", async () => {
      expect((await upload(first, samples.pdf(), "old.pdf")).ok).toBe(true);
      const [oldFile] = await h.settledFiles();
      expect(oldFile).toMatch(/^uploads\/resumes\/.+\.pdf$/);
      const docx = samples.docx();
      expect((await upload(first, docx, "New Resume.DOCX")).ok).toBe(true);
      expect(await h.settledFiles()).toEqual([expect.stringMatching(/^uploads\/resumes\/.+\.docx$/)]);
      expect((await state(first)).resume).toMatchObject({
        fileName: "New Resume.DOCX",
        contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      });
      expect(sha256(await download(first))).toBe(sha256(docx));
      expect((await upload(first, samples.doc(), "old-word.doc")).ok).toBe(true);
      expect((await state(first)).resume?.contentType).toBe("application/msword");
      // Its name by the rule every stored file name follows: no line breaks, no path.
      for (const [sent, stored] of [
        ["a\r\n../b.pdf", "b.pdf"],
        ["C:\\cv\r\n..\\my\tcv.pdf", "mycv.pdf"],
      ]) {
        expect((await upload(first, samples.pdf(), sent!)).ok).toBe(true);
        expect((await state(first)).resume?.fileName).toBe(stored);
      }
    });

    it("refuses a wrong extension, a wrong signature and a too-large file, keeping the previous resume and no orphans", async () => {
      const original = samples.pdf();
      expect((await upload(first, original, "keep.pdf")).ok).toBe(true);
      const before = await state(first);
      const filesBefore = await h.settledFiles();

      const wrongExtension = await upload(first, samples.pdf(), "cv.exe");
      expect([wrongExtension.status, wrongExtension.body]).toEqual([415, resumeMessages.wrongType]);

      for (const [data, name] of [
        [samples.plainZip(), "cv.docx"],
        [samples.docx(), "cv.pdf"],
        [Buffer.from("<html><script>alert(1)</script></html>"), "cv.doc"],
        [samples.pdf(), "cv.docx"],
      ] as const) {
        const refused = await upload(first, data, name);
        expect([refused.status, refused.body], name).toEqual([415, resumeMessages.notMatching]);
      }

      const tooLarge = await upload(first, samples.pdf(2 * 1024 * 1024 + 1), "big.pdf");
      expect([tooLarge.status, tooLarge.body]).toEqual([413, resumeMessages.tooLarge(2)]);

      expect(await state(first)).toEqual(before);
      expect(await h.settledFiles()).toEqual(filesBefore);
      expect(sha256(await download(first))).toBe(sha256(original));
    });

    it("does not let a learner finish an upload as someone else by sending an owner in the metadata", async () => {
      const data = samples.pdf();
      const response = await fetch(`${server.url}/api/learner/resume/upload`, {
        method: "POST",
        headers: {
          cookie: second.cookie,
          "Tus-Resumable": "1.0.0",
          "Upload-Length": String(data.length),
          "Upload-Metadata": `filename ${Buffer.from("x.pdf").toString("base64")},owner ${Buffer.from(first.id).toString("base64")}`,
          "Content-Type": "application/offset+octet-stream",
        },
        body: data,
      });
      expect([response.status, await response.text()]).toEqual([201, ""]);
      expect((await state(first)).resume).toBeNull();
      expect((await state(second)).resume?.fileName).toBe("x.pdf");
      expect((await h.settledFiles()).filter((f) => f.startsWith("uploads-incoming"))).toEqual([]);
    });

    /** Starts an upload and sends part of it, leaving it unfinished; returns its id. */
    const startUpload = async (learner: Learner, data: Buffer, sent: number) => {
      const created = await fetch(`${server.url}/api/learner/resume/upload`, {
        method: "POST",
        headers: {
          cookie: learner.cookie,
          "Tus-Resumable": "1.0.0",
          "Upload-Length": String(data.length),
          "Upload-Metadata": `filename ${Buffer.from("cv.pdf").toString("base64")}`,
        },
      });
      expect(created.status).toBe(201);
      const id = created.headers.get("location")!.split("/").pop()!;
      const patched = await fetch(`${server.url}/api/learner/resume/upload/${id}`, {
        method: "PATCH",
        headers: {
          cookie: learner.cookie,
          "Tus-Resumable": "1.0.0",
          "Upload-Offset": "0",
          "Content-Type": "application/offset+octet-stream",
        },
        body: new Uint8Array(data.subarray(0, sent)),
      });
      expect(patched.status).toBe(204);
      return id;
    };
    /** The ids of the uploads tus keeps something of (files on disk, objects in the bucket). */
    const unfinished = async () => [
      ...new Set(
        (await h.files())
          .filter((f) => f.startsWith("uploads-incoming/"))
          .map((f) => f.slice("uploads-incoming/".length).replace(/\.(json|info|part)$/, "")),
      ),
    ];

    it("keeps one unfinished upload per learner: a new one replaces the old", async () => {
      const first1 = await startUpload(first, samples.pdf(300_000), 1000);
      const second1 = await startUpload(second, samples.pdf(300_000), 1000);
      const first2 = await startUpload(first, samples.pdf(300_000), 1000);
      expect((await unfinished()).sort()).toEqual([first2, second1].sort());
      expect(first1).not.toBe(first2);
      const rows = await handle.db.selectFrom("resume_upload").select(["learnerId", "uploadId"]).execute();
      expect(rows.sort((a, b) => a.learnerId.localeCompare(b.learnerId))).toEqual(
        [
          { learnerId: first.id, uploadId: first2 },
          { learnerId: second.id, uploadId: second1 },
        ].sort((a, b) => a.learnerId.localeCompare(b.learnerId)),
      );
    });

    it("sweeps uploads untouched for an hour, finished leftovers too, and keeps resumes and fresh uploads", async () => {
      expect((await upload(first, samples.pdf(), "kept.pdf")).ok).toBe(true);
      // Its finished upload is dropped in the background: let that end before looking at the
      // store (s3rver throws an uncaught error when an object goes while it reads it).
      await h.settledFiles();
      const stale = await startUpload(second, samples.pdf(300_000), 1000);
      // A finished upload that a crash left before it became a resume: all its bytes went into
      // tus's store, but the finishing step never ran.
      const leftover = "0123456789abcdef0123456789abcdef";
      const { incoming } = h.services.resumes;
      const bytes = samples.pdf();
      const id = incoming.storeId(leftover);
      await incoming.datastore.create(
        new Upload({ id, size: bytes.length, offset: 0, metadata: { filename: "cv.pdf" } }),
      );
      expect(await incoming.datastore.write(Readable.from([bytes]), id, 0)).toBe(bytes.length);
      // Object stores keep times to the second: the fresh upload comes clearly later.
      await new Promise((r) => setTimeout(r, 2_100));
      const cut = Date.now() - 1_500;
      const fresh = await startUpload(third, samples.pdf(300_000), 1000);
      expect((await unfinished()).sort()).toEqual([fresh, leftover, stale].sort());

      // An hour after the cut: the two older ones are abandoned, the fresh one is not.
      expect(await h.services.resumes.cleanUp(cut + 60 * 60_000)).toBe(2);
      expect(await unfinished()).toEqual([fresh]);
      expect((await state(first)).resume?.fileName).toBe("kept.pdf");
      expect((await h.files()).filter((f) => f.startsWith("uploads/resumes"))).toHaveLength(1);
      expect(await handle.db.selectFrom("resume_upload").select("uploadId").execute()).toEqual([{ uploadId: fresh }]);
      // And the fresh one still takes its next bytes.
      const head = await fetch(`${server.url}/api/learner/resume/upload/${fresh}`, {
        method: "HEAD",
        headers: { cookie: third.cookie, "Tus-Resumable": "1.0.0" },
      });
      expect(head.headers.get("upload-offset")).toBe("1000");
    });

    it("replaces a photo and a resume atomically: 20 at once leave one row and one file each", async () => {
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#c00" } })
        .png()
        .toBuffer();
      const deps = { db: handle.db, storage: h.storage, bus: h.bus };
      const photos = await Promise.all(Array.from({ length: 20 }, () => replaceProfilePhoto(deps, first.id, png)));
      expect(photos.every((result) => result.ok)).toBe(true);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-resumes-"));
      try {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => {
            const file = path.join(dir, `cv-${i}.pdf`);
            fs.writeFileSync(file, samples.pdf(4096 + i));
            return replaceResume(deps, first.id, {
              path: file,
              fileName: `cv-${i}.pdf`,
              contentType: "application/pdf",
            });
          }),
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const [photo] = await handle.db.selectFrom("profile_photo").select("storageKey").execute();
      expect(await handle.db.selectFrom("resume").select("storageKey").execute()).toHaveLength(1);
      const stored = await h.files();
      expect(stored.filter((f) => f.startsWith("uploads/photos/"))).toHaveLength(1);
      expect(stored.filter((f) => f.startsWith("uploads/resumes/"))).toHaveLength(1);
      // The photo's own route serves the stored WebP from wherever it is stored.
      const served = await h.call(null, "GET", `/api/learner/photos/${photo!.storageKey.slice("photos/".length)}`);
      expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/webp"]);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(served.headers.get("content-length")).toBe(String(bytes.length));
      expect((await sharp(bytes).metadata()).format).toBe("webp");
    });

    it("refuses a file name with control characters or over 255 characters, and Upload-Concat, with 400", async () => {
      const start = (name: string, extra: Record<string, string> = {}) =>
        fetch(`${server.url}/api/learner/resume/upload`, {
          method: "POST",
          headers: {
            cookie: first.cookie,
            "Tus-Resumable": "1.0.0",
            "Upload-Length": "2048",
            "Upload-Metadata": `filename ${Buffer.from(name).toString("base64")}`,
            ...extra,
          },
        });
      for (const name of ["cv\u0000.pdf", `${"a".repeat(260)}.pdf`]) expect((await start(name)).status).toBe(400);
      expect((await start("cv.pdf", { "Upload-Concat": "partial" })).status).toBe(400);
      expect((await start("cv.pdf")).status).toBe(201);
    });
  }),
);
