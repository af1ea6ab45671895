import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { sampleDocumentPdf } from "~/documents/sample-pdf-page.server";
import { settingsMessages } from "~/documents/settings-rules";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

// The settings page's sample: a PDF made with the form as typed, before it is saved, for admins
// alone; nothing is stored or signed.

/** The PDF's words (pdftotext) and its title (pdfinfo), once qpdf passed it. */
function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-sample-"));
  const file = path.join(dir, "sample.pdf");
  fs.writeFileSync(file, pdf);
  try {
    execFileSync("qpdf", ["--check", file], { encoding: "utf8" });
    const title = /^Title:\s*(.*)$/m.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1];
    return `${title}\n${execFileSync("pdftotext", [file, "-"], { encoding: "utf8" })}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describeEachDatabase("documents: a sample before saving", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let admin: Learner;
  let staff: Learner;
  let learner: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle, { signatory: null });
    admin = await h.signUp("Anita");
    staff = await h.signUp("Suresh");
    learner = await h.signUp("Leena");
    await h.setRole(admin, "admin");
    await h.setRole(staff, "mentor");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const sample = (who: Learner | null, fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return sampleDocumentPdf(
      new Request(`${appUrl}/staff/documents/sample`, {
        method: "POST",
        headers: { origin: appUrl, ...(who ? { cookie: who.cookie } : {}) },
        body: form,
      }),
    );
  };
  const typed = { signatoryName: "Kavita Rao", signatoryTitle: "Head of Training" };

  it("renders a certificate and an offer letter with the typed signatory, marked SAMPLE, storing nothing", async () => {
    for (const kind of ["certificate", "offer-letter"]) {
      const response = await sample(admin, { kind, ...typed });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const text = pdfText(Buffer.from(await response.arrayBuffer()));
      expect(text).toContain("Kavita Rao");
      expect(text).toContain("Head of Training");
      expect(text).toMatch(/^SAMPLE (Certificate|Offer letter): /);
      expect(text).toContain(h.config.site.name);
    }
    expect(await handle.db.selectFrom("document").select("id").execute()).toEqual([]);
    expect(await handle.db.selectFrom("document_settings").select("id").execute()).toEqual([]);
  });

  it("is for admins only, and refuses what the form would refuse", async () => {
    expect((await sample(null, { kind: "certificate", ...typed })).status).toBe(401);
    expect((await sample(learner, { kind: "certificate", ...typed })).status).toBe(403);
    expect((await sample(staff, { kind: "certificate", ...typed })).status).toBe(403);
    expect((await sample(admin, { kind: "diploma", ...typed })).status).toBe(400);
    const nameless = await sample(admin, { kind: "certificate", ...typed, signatoryName: "  " });
    expect(nameless.status).toBe(400);
    expect(await nameless.json()).toEqual({ message: settingsMessages.nameRequired });
    const notPng = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], "sig.png", { type: "image/png" });
    const refused = await sample(admin, { kind: "certificate", ...typed, signature: notPng });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toEqual({ message: settingsMessages.notPng });
    const huge = new File([new Uint8Array(600 * 1024)], "sig.png", { type: "image/png" });
    expect((await sample(admin, { kind: "certificate", ...typed, signature: huge })).status).toBe(413);
  });
});
