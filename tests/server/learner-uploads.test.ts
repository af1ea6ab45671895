import { createHash } from "node:crypto";
import * as tus from "tus-js-client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { LearnerState } from "~/learners/learner-state";
import { resumeMessages } from "~/uploads/resume-types";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, samples, type Harness, type Learner } from "./learner-harness";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

interface Outcome {
  ok: boolean;
  status?: number;
  body?: string;
  url: string | null;
  /** The Upload-Offset of each PATCH sent. */
  offsets: number[];
}

describeEachDatabase("learner resume uploads (tus)", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let server: { url: string; close(): Promise<void> };
  let first: Learner;
  let second: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle, { resumeMaxMb: 2 });
    server = await h.listen();
    first = await h.signUp("first");
    second = await h.signUp("second");
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
    // One stored file per learner, nothing left in the incoming directory.
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
});
