import { afterEach, beforeEach, expect, it } from "vitest";
import { documentSettingsAction } from "~/documents/settings-page.server";
import { settingsMessages } from "~/documents/settings-rules";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// No document is issued (single, bulk, offer letter, reissue) until an admin has set who signs.

const certificate = { title: "Full Stack Web Development", description: "", issuedOn: "", validUntil: "", hours: "" };

const offer = {
  title: "Junior Web Developer",
  issuedOn: "",
  startDate: "2099-01-04",
  location: "Pune",
  payKind: "stipend",
  payAmount: "25000",
  payPeriod: "month",
  replyBy: "2099-01-01",
  body: "",
};

describeEachDatabase("documents: a signatory first", (database) => {
  let handle: TestDatabaseHandle;
  let app: Harness;
  let admin: Learner;
  let leena: Learner;
  let ravi: Learner;

  beforeEach(async () => {
    handle = await database.open();
    app = await createHarness(handle, { signatory: null });
    admin = await app.signUp("Anita");
    leena = await app.signUp("Leena");
    ravi = await app.signUp("Ravi");
    await app.setRole(admin, "admin");
  });
  afterEach(async () => {
    await app.dispose();
    await handle.dispose();
  });

  const page = () => `/staff/learners/${leena.id}`;
  const audit = async () =>
    (await handle.db.selectFrom("staff_audit").select("action").execute()).map((row) => row.action).sort();
  const issued = async () => ({
    documents: (await handle.db.selectFrom("document").select("id").execute()).length,
    jobs: (await handle.db.selectFrom("document_job").select("id").execute()).length,
  });

  it("refuses every issuing intent until an admin sets who signs, then issues", async () => {
    const signatorySet = async () => ({
      workspace: (await app.load<{ signatorySet: boolean }>(admin, "/staff")).data.signatorySet,
      learnerPage: (await app.load<{ signatorySet: boolean }>(admin, page())).data.signatorySet,
    });
    expect(await signatorySet()).toEqual({ workspace: false, learnerPage: false });
    const attempts = [
      { intent: "issue-certificate", learnerIds: leena.id, ...certificate },
      { intent: "issue-certificate", learnerIds: `${leena.id},${ravi.id}`, ...certificate },
      { intent: "issue-certificates-matching", search: "", course: "", expectedCount: "3", ...certificate },
      { intent: "issue-offer-letter", learnerId: leena.id, ...offer },
      { intent: "reissue-certificate", learnerId: leena.id, documentId: "1", ...certificate, holderName: "Leena" },
      { intent: "reissue-offer-letter", learnerId: leena.id, documentId: "1", ...offer, holderName: "Leena" },
    ];
    for (const fields of attempts) {
      const answer = await app.act(admin, page(), fields);
      expect([fields.intent, answer.status, answer.data.message]).toEqual([
        fields.intent,
        409,
        settingsMessages.noSignatory,
      ]);
    }
    expect(await issued()).toEqual({ documents: 0, jobs: 0 });
    expect(await audit()).toEqual([]);

    const form = new FormData();
    form.set("intent", "save-document-settings");
    form.set("signatoryName", "Asha Kulkarni");
    form.set("signatoryTitle", "Director");
    const request = new Request(`${appUrl}/staff/documents`, {
      method: "POST",
      headers: { origin: appUrl, cookie: admin.cookie },
      body: form,
    });
    expect((await outcome(() => documentSettingsAction(request))).status).toBe(200);
    expect(await signatorySet()).toEqual({ workspace: true, learnerPage: true });

    const single = await app.act(admin, page(), attempts[0]!);
    expect(single).toMatchObject({ status: 200, data: { ok: true } });
    const offerLetter = await app.act(admin, page(), attempts[3]!);
    expect(offerLetter).toMatchObject({ status: 200, data: { ok: true } });
    expect(await issued()).toEqual({ documents: 2, jobs: 0 });
    expect(await audit()).toEqual(["document-settings", "issue-certificate", "issue-offer-letter"]);
  });
});
