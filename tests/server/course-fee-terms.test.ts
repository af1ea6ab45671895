import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { catalogueAction, loadCataloguePage } from "~/catalogue/catalogue-page.server";
import { catalogueMessages } from "~/catalogue/catalogue-rules";
import { advertisedCourses } from "~/catalogue/catalogue.server";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { batchWithTermsInForce } from "~/placement/batch-terms.server";
import type { LearnerPlacement } from "~/placement/learner-placement.server";
import { placementMessages } from "~/placement/placement-fields";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// Fee terms belong to a course: its card shows them, its batches use them unless a batch
// overrides them (shown as such), admins alone set them, each change audited; migration 0044
// keeps every existing batch on the terms it had.

type Catalogue = Awaited<ReturnType<typeof loadCataloguePage>>;
type BatchesData = {
  batches: { id: string; name: string; termsName: string | null; termsSource: string }[];
  terms: { id: string; name: string }[];
};
type BatchData = {
  feeTerms: { source: string; inForce: { name: string; line: string } | null; courseTermsName: string | null };
};

const paymentUrl = "https://payments.example.com/upskill";
const fifteenPercentLine = "Pay 15 % of your first-year salary after placement, at most ₹2,00,000 + GST";

describeEachDatabase("fee terms on courses, batch overrides", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  let second: Learner;
  let staff: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    [learner, second, staff, admin] = await Promise.all([
      h.signUp("Leena"),
      h.signUp("Omar"),
      h.signUp("Sita"),
      h.signUp("Arun"),
    ]);
    await h.setRole(staff, "staff");
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  /** Posts the catalogue editor's form as this user. */
  const catalogue = (who: Learner, fields: Record<string, string>) =>
    outcome<{ ok: boolean; message: string }>(() =>
      catalogueAction(
        new Request(`${appUrl}/staff/courses`, {
          method: "POST",
          headers: { origin: appUrl, "content-type": "application/x-www-form-urlencoded", cookie: who.cookie },
          body: new URLSearchParams(fields),
        }),
      ),
    );
  const editor = async () =>
    (
      await outcome<Catalogue>(() =>
        loadCataloguePage(new Request(`${appUrl}/staff/courses`, { headers: { cookie: admin.cookie } })),
      )
    ).data;
  /** The Java course's form as stored, with these changes. */
  const java = (changes: Record<string, string>) => {
    const fields: Record<string, string> = {
      intent: "save-course",
      slug: "java",
      title: "Java",
      duration: "5 Months",
      price: "15500",
      details: "Core Java and Spring Boot.",
      shown: "on",
      ...changes,
    };
    // An unticked checkbox sends nothing.
    if (fields.shown === "") delete fields.shown;
    return fields;
  };
  const ok = async (who: Learner, address: string, fields: Record<string, string>) => {
    const answer = await h.act(who, address, fields);
    expect(answer.data, `${address} ${fields.intent}`).toMatchObject({ ok: true });
    return answer;
  };
  const batches = async () => (await h.load<BatchesData>(staff, "/staff/batches")).data;
  const batchPage = async (id: string) => (await h.load<BatchData>(admin, `/staff/batches/${id}`)).data.feeTerms;
  const termsIdOf = async (name: string) => (await batches()).terms.find((terms) => terms.name === name)!.id;
  const batchIdOf = async (name: string) => (await batches()).batches.find((batch) => batch.name === name)!.id;
  const agreementText = async (who: Learner, batchName: string) => {
    const mine = (await h.load<{ placement: LearnerPlacement }>(who, "/placement")).data.placement;
    return mine.enrolments.find((enrolment) => enrolment.batchName === batchName)!.agreement!.text;
  };
  const audit = async () =>
    (
      await handle.db
        .selectFrom("staff_audit")
        .select(["action", "actorId", "target", "detail"])
        .orderBy("createdAt")
        .execute()
    ).map((row) => [row.action, row.actorId, row.target, row.detail]);

  async function defineTerms(name: string, changes: Record<string, string> = {}) {
    await ok(admin, "/staff/batches", {
      intent: "define-terms",
      name,
      threshold: "3,00,000",
      feeKind: "percent",
      feePercent: "15",
      feeAmount: "",
      cap: "2,00,000",
      instalments: "6",
      windowMonths: "12",
      gst: "18",
      pauseRule: "Instalments pause while you earn below the threshold.",
      ...changes,
    });
    return termsIdOf(name);
  }
  /** A pay-after-placement Java batch's form, following the course's terms unless given its own. */
  const newBatch = (name: string, termsId = "") => ({
    intent: "create-batch",
    name,
    courseSlug: "java",
    startDate: "2026-01-05",
    endDate: "2026-06-30",
    payment: "pap",
    termsId,
  });

  it("lets only admins give a course fee terms, audited; its card then shows them in one line beside the price", async () => {
    const termsId = await defineTerms("PAP 15");
    // A staff member (not an admin) and a learner are refused, and nothing changes.
    expect((await catalogue(staff, java({ termsId }))).status).toBe(403);
    expect((await catalogue(learner, java({ termsId }))).status).toBe(403);
    const card = async () => (await advertisedCourses(handle.db, paymentUrl)).find((course) => course.id === "java")!;
    expect(await card()).toMatchObject({ priceText: "₹15,500", termsLine: null });

    expect(await catalogue(admin, java({ termsId }))).toMatchObject({ status: 200, data: { ok: true } });
    expect(await card()).toMatchObject({ priceText: "₹15,500", termsLine: fifteenPercentLine });
    // Other courses have none.
    expect((await advertisedCourses(handle.db, paymentUrl)).filter((course) => course.termsLine !== null)).toHaveLength(
      1,
    );
    const course = (await editor()).courses.find((row) => row.slug === "java")!;
    expect(course).toMatchObject({ termsId, termsName: "PAP 15", termsLine: fifteenPercentLine });

    // Terms that do not exist are refused; taking them away is allowed while no batch follows them.
    expect(await catalogue(admin, java({ termsId: "no-such-terms" }))).toMatchObject({
      status: 404,
      data: { message: catalogueMessages.termsGone },
    });
    expect(await catalogue(admin, java({ termsId: "x".repeat(201) }))).toMatchObject({ status: 400 });
    expect((await catalogue(admin, java({ termsId: "" }))).status).toBe(200);
    expect((await card()).termsLine).toBeNull();

    expect((await audit()).filter(([action]) => action === "course")).toEqual([
      ["course", admin.id, "Java", "changed: 5 Months, ₹15,500, fee terms PAP 15, shown"],
      ["course", admin.id, "Java", "changed: 5 Months, ₹15,500, no fee terms, shown"],
    ]);
  });

  it("gives a batch its course's terms unless it overrides them, and shows an override as such", async () => {
    const courseTerms = await defineTerms("PAP 15");
    const ownTerms = await defineTerms("PAP 10", { feePercent: "10", cap: "" });

    // A pay-after-placement batch of a course with no terms must name its own.
    expect(await h.act(staff, "/staff/batches", newBatch("Java – Jan"))).toMatchObject({
      status: 400,
      data: { message: placementMessages.courseHasNoTerms("Java") },
    });
    expect((await catalogue(admin, java({ termsId: courseTerms }))).status).toBe(200);

    // Staff create one following the course and one overriding it.
    await ok(staff, "/staff/batches", newBatch("Java – Jan"));
    await ok(staff, "/staff/batches", newBatch("Java – Feb", ownTerms));
    const jan = await batchIdOf("Java – Jan");
    const feb = await batchIdOf("Java – Feb");
    const listed = (await batches()).batches;
    expect(listed.find((batch) => batch.id === jan)).toMatchObject({ termsName: "PAP 15", termsSource: "course" });
    expect(listed.find((batch) => batch.id === feb)).toMatchObject({ termsName: "PAP 10", termsSource: "override" });
    expect(await batchPage(jan)).toMatchObject({
      source: "course",
      inForce: { name: "PAP 15", line: fifteenPercentLine },
    });
    expect(await batchPage(feb)).toMatchObject({
      source: "override",
      inForce: { name: "PAP 10", line: "Pay 10 % of your first-year salary after placement + GST" },
      courseTermsName: "PAP 15",
    });

    // Enrolled learners agree to the terms in force for their batch.
    await ok(staff, "/staff/placement", { intent: "enrol", learnerId: learner.id, batchId: jan, seeking: "yes" });
    await ok(staff, "/staff/placement", { intent: "enrol", learnerId: second.id, batchId: feb, seeking: "yes" });
    const accepted = await agreementText(learner, "Java – Jan");
    expect(accepted).toContain(
      "you pay a fee of 15 % of the offer's fixed CTC a year, at most ₹2,00,000, plus GST at 18 %",
    );
    expect(await agreementText(second, "Java – Feb")).toContain(
      "you pay a fee of 10 % of the offer's fixed CTC a year, plus GST",
    );
    const enrolmentId = (await h.load<{ placement: LearnerPlacement }>(learner, "/placement")).data.placement
      .enrolments[0]!.id;
    await ok(learner, "/placement", { intent: "accept-agreement", enrolmentId });

    // Only admins change a batch's terms; a staff member is told so.
    expect(
      await h.act(staff, "/staff/batches", { intent: "set-batch-terms", batchId: feb, termsId: "" }),
    ).toMatchObject({
      status: 403,
      data: { message: placementMessages.staffCannotSetBatchTerms },
    });
    expect(
      await h.act(admin, "/staff/batches", { intent: "set-batch-terms", batchId: feb, termsId: ownTerms }),
    ).toMatchObject({ status: 409, data: { message: placementMessages.termsUnchanged } });
    expect(
      await h.act(admin, "/staff/batches", { intent: "set-batch-terms", batchId: feb, termsId: "nope" }),
    ).toMatchObject({ status: 404, data: { message: placementMessages.unknownTerms } });
    await ok(admin, "/staff/batches", { intent: "set-batch-terms", batchId: feb, termsId: "" });
    expect(await batchPage(feb)).toMatchObject({ source: "course", inForce: { name: "PAP 15" } });
    await ok(admin, "/staff/batches", { intent: "set-batch-terms", batchId: jan, termsId: ownTerms });
    expect(await batchPage(jan)).toMatchObject({ source: "override", inForce: { name: "PAP 10" } });

    // The course's terms change: a batch following them draws new agreements from the new terms,
    // while an accepted agreement stays exactly as accepted.
    const newTerms = await defineTerms("PAP 12.5", { feePercent: "12.5", cap: "1,50,000" });
    expect((await catalogue(admin, java({ termsId: newTerms }))).status).toBe(200);
    expect(await batchPage(feb)).toMatchObject({ source: "course", inForce: { name: "PAP 12.5" } });
    const third = await h.signUp("Ravi");
    await ok(staff, "/staff/placement", { intent: "enrol", learnerId: third.id, batchId: feb, seeking: "yes" });
    expect(await agreementText(third, "Java – Feb")).toContain(
      "12.5 % of the offer's fixed CTC a year, at most ₹1,50,000",
    );
    expect(await agreementText(learner, "Java – Jan")).toBe(accepted);
    expect(await agreementText(second, "Java – Feb")).toContain("you pay a fee of 10 %");

    // A batch following the course is never left without terms: the course keeps them, and the
    // batch can't move to a course that has none.
    expect(await catalogue(admin, java({ termsId: "" }))).toMatchObject({
      status: 409,
      data: { message: catalogueMessages.termsInUse(1) },
    });
    expect(
      await h.act(staff, "/staff/batches", {
        intent: "edit-batch",
        batchId: feb,
        courseSlug: "python",
        schedule: "",
        trainerIds: "",
      }),
    ).toMatchObject({ status: 409, data: { message: placementMessages.courseHasNoTerms("Python") } });

    const batchTermsAudit = (await audit()).filter(([action]) => action === "batch-terms");
    expect(batchTermsAudit).toEqual([
      ["batch-terms", admin.id, "Java – Feb", "follows the course's terms"],
      ["batch-terms", admin.id, "Java – Jan", "overrides the course's terms with PAP 10"],
    ]);
  });

  it("warns in the editor where a shown course's advertised price and its fee terms disagree", async () => {
    const termsId = await defineTerms("PAP 15");
    const warned = async () => (await editor()).disagreements.map((entry) => entry.title);
    expect(await warned()).toEqual([]);
    // ₹15,500 beside terms charging up to ₹2,00,000: they disagree.
    expect((await catalogue(admin, java({ termsId }))).status).toBe(200);
    expect((await editor()).disagreements).toEqual([
      { title: "Java", why: "Its card advertises ₹15,500, but its fee terms charge up to ₹2,00,000 before GST." },
    ]);
    // The price the terms charge at most, or no price at all, agrees.
    expect((await catalogue(admin, java({ termsId, price: "2,00,000" }))).status).toBe(200);
    expect(await warned()).toEqual([]);
    expect((await catalogue(admin, java({ termsId, price: "" }))).status).toBe(200);
    expect(await warned()).toEqual([]);
    // A hidden course is not advertised: no warning.
    expect((await catalogue(admin, java({ termsId, shown: "" }))).status).toBe(200);
    expect(await warned()).toEqual([]);
    // A course sold through pay-after-placement batches with no terms of its own disagrees too.
    expect((await catalogue(admin, java({ termsId: "" }))).status).toBe(200);
    await ok(staff, "/staff/batches", newBatch("Java – Jan", termsId));
    expect((await editor()).disagreements).toEqual([
      {
        title: "Java",
        why: "It has 1 pay-after-placement batch but no fee terms: its card shows none, while its learners sign the terms their batch names.",
      },
    ]);
  });
});

describeEachDatabase("migration 0044_course_fee_terms over a site with pay-after-placement batches", (database) => {
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it("keeps every existing batch's terms as its explicit override, and every agreement as it was", async () => {
    handle = await database.open({ migrate: false });
    const db = handle.db;
    const before = (name: string) => name < "0044";
    await migrateToLatest(db, Object.fromEntries(Object.entries(migrations).filter(([name]) => before(name))));
    const learnerId = await insertUser(db, { name: "Asha", email: "asha@example.com" });
    const at = "2026-01-01T00:00:00.000Z";
    await sql`insert into fee_terms (id, name, "ctcThresholdPaise", "feeKind", "feeAmountPaise", "feeBasisPoints",
        "capPaise", instalments, "placementWindowMonths", "gstBasisPoints", "pauseRule", "createdBy", "createdAt")
      values (${"t1"}, ${"PAP 2026"}, ${30_000_000}, ${"percent"}, ${null}, ${1500}, ${20_000_000}, ${6}, ${12},
        ${1800}, ${"Pauses while below the threshold."}, ${"Arun"}, ${at})`.execute(db);
    const batch = (id: string, payment: "pap" | "upfront", termsId: string | null) =>
      sql`insert into batch (id, name, course, "courseSlug", "startDate", "endDate", payment, "termsId", "createdAt")
        values (${id}, ${id}, ${"Java"}, ${"java"}, ${"2026-01-01"}, ${"2026-06-30"}, ${payment}, ${termsId}, ${at})`.execute(
        db,
      );
    await batch("pap-batch", "pap", "t1");
    await batch("upfront-batch", "upfront", null);
    await sql`insert into enrolment (id, "batchId", "learnerId", seeking, graduation, "seekingAtGraduation", "createdAt")
      values (${"e1"}, ${"pap-batch"}, ${learnerId}, ${1}, ${"in-progress"}, ${null}, ${at})`.execute(db);
    await sql`insert into agreement ("enrolmentId", "termsId", terms, "termsText", "acceptedAt", decision,
        "decisionText", "offerId", "createdAt")
      values (${"e1"}, ${"t1"}, ${'{"as":"agreed"}'}, ${"The text as accepted."}, ${at}, ${null}, ${null}, ${null},
        ${at})`.execute(db);
    const agreementBefore = await db.selectFrom("agreement").selectAll().execute();

    const result = await migrateToLatest(db, migrations);
    expect(result.error).toBeUndefined();
    expect(await batchWithTermsInForce(db, "pap-batch")).toMatchObject({
      termsId: "t1",
      ownTermsId: "t1",
      courseTermsId: null,
    });
    expect(await batchWithTermsInForce(db, "upfront-batch")).toMatchObject({ termsId: null, ownTermsId: null });
    expect((await db.selectFrom("course").select("termsId").execute()).every((course) => course.termsId === null)).toBe(
      true,
    );
    expect(await db.selectFrom("agreement").selectAll().execute()).toEqual(agreementBefore);
  });
});
