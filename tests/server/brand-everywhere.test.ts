import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, expect, it } from "vitest";
import { storeEnquiry } from "~/enquiries/enquiries.server";
import { siteAdminAction } from "~/site/site-admin-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { headerText, startSmtp, type TestSmtp } from "../support/smtp";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// The brand admins store at /staff/site is what the next PDF and the next email carry, not the
// SITE_* variables (which only seed the first start): the PDFs read by poppler, the mail as an
// SMTP server receives it.

/** A poppler tool run on the PDF written to a file of its own; its standard output. */
function poppler(pdf: Buffer, command: "pdftotext" | "pdfimages", args: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-brand-"));
  const file = path.join(dir, "document.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(command, [...args, file, ...(command === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const newBrand = {
  intent: "save-brand",
  name: "Nagpur Code School",
  email: "office@ncs.example",
  phone: "+91 91234 56789",
  address: "12 Civil Lines, Nagpur 440001",
  whatsapp: "",
  colour: "",
};

describeEachDatabase("the stored brand in documents and mail", (database) => {
  let handle: TestDatabaseHandle;
  let smtp: TestSmtp;
  let h: Harness;
  let admin: Learner;
  let meera: Learner;

  beforeEach(async () => {
    handle = await database.open();
    smtp = await startSmtp();
    // The environment names another institute: only the first start reads it.
    h = await createHarness(handle, {
      env: { SMTP_URL: smtp.url, SITE_NAME: "Env Institute", SITE_EMAIL: "env@institute.example" },
    });
    admin = await h.signUp("Anita");
    await h.setRole(admin, "admin");
    meera = await h.signUp("Meera");
  });
  afterEach(async () => {
    await h.dispose();
    await smtp.close();
    await handle.dispose();
  });

  const siteAction = (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const request = new Request(`${appUrl}/staff/site`, {
      method: "POST",
      headers: { origin: appUrl, cookie: admin.cookie },
      body: form,
    });
    return outcome<{ ok: boolean; message: string }>(() => siteAdminAction(request));
  };
  const publishBrand = async (fields: Record<string, string | Blob>) => {
    expect((await siteAction(fields)).status).toBe(200);
    expect((await siteAction({ intent: "publish" })).status).toBe(200);
  };
  const logo = async () => {
    const bytes = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#14532d" } })
      .png()
      .toBuffer();
    return new File([new Uint8Array(bytes)], "logo.png", { type: "image/png" });
  };
  const issue = async (intent: "issue-certificate" | "issue-offer-letter") => {
    const fields: Record<string, string> =
      intent === "issue-certificate"
        ? { learnerIds: meera.id, title: "Data Analysis", description: "", issuedOn: "", validUntil: "", hours: "" }
        : {
            learnerId: meera.id,
            title: "Junior Analyst",
            issuedOn: "",
            startDate: "2099-01-04",
            location: "Nagpur",
            payKind: "stipend",
            payAmount: "25000",
            payPeriod: "month",
            replyBy: "2099-01-01",
            body: "",
          };
    const answer = await h.act(admin, `/staff/learners/${meera.id}`, { intent, ...fields });
    expect(answer.status, answer.data.message).toBe(200);
    const row = await handle.db
      .selectFrom("document")
      .select(["storageKey", "issuerName"])
      .where("learnerId", "=", meera.id)
      .where("kind", "=", intent === "issue-certificate" ? "certificate" : "offer-letter")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    const stored = await h.services.storage.get(row.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
    return { issuerName: row.issuerName, pdf: Buffer.concat(chunks) };
  };

  it("prints the brand stored now on the next certificate and offer letter, with the stored logo", async () => {
    const before = await issue("issue-certificate");
    expect(poppler(before.pdf, "pdftotext", [])).toContain("Env Institute");
    expect(poppler(before.pdf, "pdfimages", ["-list"]).trim().split("\n")).toHaveLength(2); // the header only: no image

    await publishBrand({ ...newBrand, logo: await logo() });
    const certificate = await issue("issue-certificate");
    const text = poppler(certificate.pdf, "pdftotext", []);
    expect(text).toContain("Nagpur Code School");
    expect(text).toContain("12 Civil Lines, Nagpur 440001");
    expect(text).not.toContain("Env Institute");
    expect(certificate.issuerName).toBe("Nagpur Code School");
    // The logo is drawn as the stored PNG (one image, its size as uploaded: it fits the logo box).
    const images = poppler(certificate.pdf, "pdfimages", ["-list"]).trim().split("\n").slice(2);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^\s*1\s+0\s+image\s+300\s+100\s/);

    const letter = poppler((await issue("issue-offer-letter")).pdf, "pdftotext", []);
    expect(letter).toContain("Nagpur Code School");
    expect(letter).toContain("office@ncs.example");
    expect(letter).toContain("For Nagpur Code School");
    expect(letter).not.toContain("env@institute.example");
  });

  it("writes the next email with the stored name as sender, in its subject and signature", async () => {
    await publishBrand(newBrand);
    await issue("issue-offer-letter");
    await h.services.mailWorker.runOnce();
    const [mail] = smtp.mails;
    expect(mail!.parsed.subject).toBe("Your offer letter from Nagpur Code School");
    expect(mail!.parsed.from?.value).toEqual([
      { name: "Nagpur Code School", address: "no-reply@localhost.localdomain" },
    ]);
    expect(mail!.parsed.text).toContain("Nagpur Code School\n12 Civil Lines, Nagpur 440001\noffice@ncs.example");
    expect(mail!.parsed.html).toContain("<strong>Nagpur Code School</strong>");
    expect(mail!.raw).not.toContain("Env Institute");

    // Renamed again: the next email follows at once.
    await publishBrand({ ...newBrand, name: "NCS Academy" });
    await h.act(admin, "/staff", { intent: "send", learnerId: meera.id, kind: "task", html: "<p>Read chapter 2.</p>" });
    await storeEnquiry(
      { db: handle.db, bus: h.bus },
      {
        name: "Ravi",
        phone: "9876543210",
        email: "",
        course: "Web Development",
        message: "Evening batch?",
        callbackTime: "evening",
      },
    );
    await h.services.mailWorker.runOnce();
    const task = smtp.mails.find((m) => m.parsed.subject === "New task from NCS Academy");
    expect(task!.parsed.text).toContain("You get this email because you have an account on NCS Academy.");
    const enquiry = smtp.mails.find((m) => m.parsed.subject === "New enquiry from Ravi: Web Development");
    // The notification goes to the stored email, not SITE_EMAIL.
    expect(enquiry!.to).toEqual(["office@ncs.example"]);
    expect(enquiry!.parsed.text).toContain("through the NCS Academy website");
    expect(headerText(enquiry!, "From")).toContain("NCS Academy");
  });
});
