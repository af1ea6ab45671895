import { afterEach, beforeEach, expect, it } from "vitest";
import { courseMessages } from "~/accounts/sign-up-schema";
import { catalogueAction, loadCataloguePage } from "~/catalogue/catalogue-page.server";
import { catalogueMessages } from "~/catalogue/catalogue-rules";
import { advertisedCourses, signUpCourseOptions } from "~/catalogue/catalogue.server";
import { courses, signUpCourses } from "~/content/site-content";
import { publicSiteTopic, type RealtimeEvent } from "~/realtime/events";
import { planImport } from "~/staff/import-plan.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type Who = "anonymous" | "learner" | "staff" | "admin";
type Catalogue = Awaited<ReturnType<typeof loadCataloguePage>>;

const paymentUrl = "https://payments.example.com/upskill";

describeEachDatabase("the staff-managed course catalogue and sign-up options", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;
  let events: RealtimeEvent[];
  let stopListening: () => void;

  const user = (who: Who) => (who === "anonymous" ? null : people[who]);

  /** Posts the editor's form as this user. */
  const act = (who: Who, fields: Record<string, string>) => {
    const cookie = user(who)?.cookie;
    const request = new Request(`${appUrl}/staff/courses`, {
      method: "POST",
      headers: {
        origin: appUrl,
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields),
    });
    return outcome<{ ok: boolean; message: string }>(() => catalogueAction(request));
  };
  const load = (who: Who) => {
    const cookie = user(who)?.cookie;
    return outcome<Catalogue>(() =>
      loadCataloguePage(new Request(`${appUrl}/staff/courses`, { headers: cookie ? { cookie } : {} })),
    );
  };
  const advertised = () => advertisedCourses(handle.db, paymentUrl);
  const stored = async (slug: string) => (await load("admin")).data.courses.find((course) => course.slug === slug)!;
  const edit = (slug: string, changes: Record<string, string>) => ({
    intent: "save-course",
    slug,
    title: "Java",
    duration: "5 Months",
    price: "15500",
    details: "Core Java and Spring Boot.",
    paymentUrl: "",
    shown: "on",
    ...changes,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    people = {
      learner: await h.signUp("Leena"),
      staff: await h.signUp("Suresh"),
      admin: await h.signUp("Anita"),
    };
    await h.setRole(people.staff, "mentor");
    await h.setRole(people.admin, "admin");
    events = [];
    stopListening = h.bus.subscribe(publicSiteTopic, (event) => void events.push(event));
  });
  afterEach(async () => {
    stopListening();
    await h.dispose();
    await handle.dispose();
  });

  it("starts with the specification's 12 courses and 36 sign-up options, in order", async () => {
    const shown = await advertised();
    expect(shown.map(({ id, title, duration, details }) => ({ id, title, duration, details }))).toEqual(
      courses.map(({ id, title, duration, details }) => ({ id, title, duration, details })),
    );
    expect(shown.map((course) => course.priceText)).toEqual([
      "₹15,500",
      "₹22,500",
      "₹24,500",
      "₹15,500",
      "₹35,500",
      "₹1,15,500",
      "₹15,500",
      "₹18,500",
      "₹12,499",
      null,
      "₹65,000",
      "₹45,500",
    ]);
    expect(shown.map((course) => course.registerUrl)).toEqual(
      courses.map((course) => `${paymentUrl}?course=${course.id}`),
    );
    expect(await signUpCourseOptions(handle.db)).toEqual([...signUpCourses]);
    // The advertised titles that no sign-up option matches exactly.
    expect((await load("admin")).data.missingOptions).toEqual([
      "Native Development",
      "Data Structures & Algorithms",
      "C & C++",
      ".NET",
      "C#",
      "Linux",
    ]);
  });

  it("lets only admins see the editor and change anything: visitors 401 (302 for the page), learners and staff 403", async () => {
    expect((await load("anonymous")).status).toBe(302);
    expect((await load("learner")).status).toBe(403);
    expect((await load("staff")).status).toBe(403);
    expect((await load("admin")).status).toBe(200);
    const changes: Record<string, string>[] = [
      edit("java", { price: "1" }),
      { intent: "add-course", title: "Rust", duration: "3 Months", price: "9000", details: "Ownership.", shown: "on" },
      { intent: "move-course", slug: "java", direction: "up" },
      { intent: "add-sign-up-option", label: "Rust" },
      { intent: "remove-sign-up-option", label: "Python" },
      { intent: "move-sign-up-option", label: "Java", direction: "up" },
    ];
    for (const fields of changes) {
      expect((await act("anonymous", fields)).status, fields.intent).toBe(401);
      expect((await act("learner", fields)).status, fields.intent).toBe(403);
      expect((await act("staff", fields)).status, fields.intent).toBe(403);
    }
    expect((await advertised()).map((course) => course.priceText)[3]).toBe("₹15,500");
    expect(await signUpCourseOptions(handle.db)).toEqual([...signUpCourses]);
    expect(await handle.db.selectFrom("staff_audit").select("id").execute()).toEqual([]);
    await settle();
    expect(events).toEqual([]);
    for (const fields of changes) expect(await act("admin", fields), fields.intent).toMatchObject({ status: 200 });
  });

  it("edits a price and hides a course: the landing page's cards follow, each change audited and announced", async () => {
    const saved = await act("admin", edit("java", { price: "17,500" }));
    expect(saved).toEqual({ status: 200, data: { ok: true, message: catalogueMessages.courseSaved } });
    expect((await advertised()).find((course) => course.id === "java")!.priceText).toBe("₹17,500");
    expect((await stored("java")).price).toBe(17500);

    const linux = await stored("linux");
    // An unticked checkbox sends nothing: hidden.
    await act("admin", {
      intent: "save-course",
      slug: "linux",
      title: linux.title,
      duration: linux.duration,
      price: "",
      details: linux.details,
    });
    const shown = await advertised();
    expect(shown).toHaveLength(11);
    expect(shown.map((course) => course.id)).not.toContain("linux");
    // Hidden, not gone: the editor still lists it.
    expect(await stored("linux")).toMatchObject({ shown: false, price: null });
    await settle();
    expect(events.length).toBe(2);
    expect(events.every((event) => event.type === "public-site-changed")).toBe(true);

    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["action", "actorId", "target", "detail"])
      .orderBy("createdAt")
      .execute();
    expect(audit.map((row) => [row.action, row.actorId, row.target])).toEqual([
      ["course", people.admin.id, "Java"],
      ["course", people.admin.id, "Linux"],
    ]);
    expect(audit[0]!.detail).toBe("changed: 5 Months, ₹17,500, no fee terms, shown");
    expect(audit[1]!.detail).toBe("changed: 3 Months, no price, no fee terms, hidden");
  });

  it("reorders courses and options, adds a course at the end, and carries its own payment link with the slug", async () => {
    expect((await act("admin", { intent: "move-course", slug: "java", direction: "up" })).status).toBe(200);
    expect((await advertised()).slice(2, 4).map((course) => course.id)).toEqual(["java", "native-development"]);
    expect((await act("admin", { intent: "move-course", slug: "java", direction: "down" })).status).toBe(200);
    expect((await advertised()).slice(2, 4).map((course) => course.id)).toEqual(["native-development", "java"]);
    const atTop = await act("admin", { intent: "move-course", slug: "web-development", direction: "up" });
    expect(atTop).toEqual({ status: 400, data: { ok: false, message: catalogueMessages.cannotMove } });

    const added = await act("admin", {
      intent: "add-course",
      title: "Rust & WebAssembly",
      duration: "4 Months",
      price: "₹29,999",
      details: "Ownership, borrowing, and Rust in the browser.",
      paymentUrl: "https://pay.example.org/checkout?plan=2026",
      shown: "on",
    });
    expect(added.status).toBe(200);
    const last = (await advertised()).at(-1)!;
    expect(last).toMatchObject({ id: "rust-webassembly", title: "Rust & WebAssembly", priceText: "₹29,999" });
    expect(last.registerUrl).toBe("https://pay.example.org/checkout?plan=2026&course=rust-webassembly");
    const again = await act("admin", {
      intent: "add-course",
      title: "rust & webassembly",
      duration: "4 Months",
      price: "",
      details: "Again.",
    });
    expect(again).toEqual({ status: 409, data: { ok: false, message: catalogueMessages.titleTaken } });

    expect(
      (await act("admin", { intent: "move-sign-up-option", label: "App Development", direction: "up" })).status,
    ).toBe(200);
    expect((await signUpCourseOptions(handle.db)).slice(0, 3)).toEqual([
      "App Development",
      "Web Development",
      "UI/UX Design",
    ]);
    const lastOption = signUpCourses.at(-1)!;
    expect((await act("admin", { intent: "move-sign-up-option", label: lastOption, direction: "down" })).status).toBe(
      400,
    );
  });

  it("refuses bad input with a 4xx and a clear message, changing nothing", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [edit("java", { title: "   " }), 400, catalogueMessages.titleRequired],
      [edit("java", { title: "x".repeat(101) }), 400, catalogueMessages.titleTooLong],
      [edit("java", { title: "Python" }), 409, catalogueMessages.titleTaken],
      [edit("java", { duration: "" }), 400, catalogueMessages.durationRequired],
      [edit("java", { details: "x".repeat(601) }), 400, catalogueMessages.detailsTooLong],
      [edit("java", { price: "12.50" }), 400, catalogueMessages.priceInvalid],
      [edit("java", { price: "-5" }), 400, catalogueMessages.priceInvalid],
      [edit("java", { price: "1e9" }), 400, catalogueMessages.priceInvalid],
      [edit("java", { price: "9".repeat(21) }), 400, catalogueMessages.priceInvalid],
      [edit("java", { price: "1,00,00,001" }), 400, catalogueMessages.priceTooHigh],
      [edit("java", { paymentUrl: "javascript:alert(1)" }), 400, catalogueMessages.paymentUrlInvalid],
      [edit("java", { paymentUrl: "ftp://pay.example.com" }), 400, catalogueMessages.paymentUrlInvalid],
      [edit("java", { paymentUrl: "pay.example.com" }), 400, catalogueMessages.paymentUrlInvalid],
      [edit("java", { paymentUrl: `https://x.example/${"a".repeat(2100)}` }), 400, catalogueMessages.paymentUrlTooLong],
      [edit("java", { title: "Ja\u0000va" }), 400, "Remove the control characters from the text."],
      [edit("java", { shown: "yes" }), 400, catalogueMessages.shownInvalid],
      [edit("no-such-course", {}), 404, catalogueMessages.courseGone],
      [edit("../etc", {}), 400, "Unknown course."],
      [{ intent: "move-course", slug: "java", direction: "sideways" }, 400, "Say which way to move it."],
      [{ intent: "add-sign-up-option", label: "" }, 400, catalogueMessages.optionRequired],
      [{ intent: "add-sign-up-option", label: "python" }, 409, catalogueMessages.optionTaken],
      [{ intent: "add-sign-up-option", label: "x".repeat(101) }, 400, catalogueMessages.optionTooLong],
      [{ intent: "remove-sign-up-option", label: "Astrology" }, 404, catalogueMessages.optionGone],
      [{ intent: "drop-tables" }, 400, "Unknown action."],
      [{}, 400, "Unknown action."],
    ];
    for (const [fields, status, message] of cases) {
      const answer = await act("admin", fields);
      expect([fields, answer.status, answer.data.message]).toEqual([fields, status, message]);
    }
    expect((await stored("java")).price).toBe(15500);
    expect(await handle.db.selectFrom("staff_audit").select("id").execute()).toEqual([]);
    await settle();
    expect(events).toEqual([]);
  });

  it("sign-up, profile changes and the CSV import accept the stored options: a removed one is refused, a new one taken", async () => {
    expect((await act("admin", { intent: "remove-sign-up-option", label: "Python" })).status).toBe(200);
    expect((await act("admin", { intent: "add-sign-up-option", label: "Rust" })).status).toBe(200);
    expect((await signUpCourseOptions(handle.db)).at(-1)).toBe("Rust");

    await expect(h.signUp("Pythonista", { course: "Python" })).rejects.toThrow(courseMessages.notOffered);
    const rustacean = await h.signUp("Rustacean", { course: "Rust" });
    const row = await handle.db.selectFrom("user").select("course").where("id", "=", rustacean.id).executeTakeFirst();
    expect(row?.course).toBe("Rust");

    // Leena signed up for Python before it was removed: she keeps it, and may not pick another removed one.
    const keep = await h.act(people.learner, "/settings", {
      intent: "update-profile",
      phone: "9123456780",
      course: "Python",
    });
    expect(keep.status).toBe(200);
    const removed = await h.act(people.learner, "/settings", {
      intent: "update-profile",
      phone: "9123456780",
      course: "Astrology",
    });
    expect([removed.status, removed.data.message]).toEqual([400, courseMessages.notOffered]);
    const switched = await h.act(people.learner, "/settings", {
      intent: "update-profile",
      phone: "9123456780",
      course: "Rust",
    });
    expect(switched.status).toBe(200);
    const back = await h.act(people.learner, "/settings", {
      intent: "update-profile",
      phone: "9123456780",
      course: "Python",
    });
    expect([back.status, back.data.message]).toEqual([400, courseMessages.notOffered]);

    const values = (course: string, n: number) => ({
      name: `Imported ${n}`,
      email: `imported-${n}@example.com`,
      phone: "9876543210",
      course,
      gender: "male",
    });
    const planned = await planImport(
      handle.db,
      [
        { line: 2, values: values("python", 1) },
        { line: 3, values: values("rust", 2) },
      ],
      "add",
    );
    expect(planned.map((row) => [row.action, row.notes])).toEqual([
      ["error", [courseMessages.notOffered]],
      ["create", []],
    ]);
  });

  it("keeps at least one sign-up option", async () => {
    for (const label of signUpCourses.slice(1)) {
      expect((await act("admin", { intent: "remove-sign-up-option", label })).status).toBe(200);
    }
    const last = await act("admin", { intent: "remove-sign-up-option", label: signUpCourses[0] });
    expect([last.status, last.data.message]).toEqual([409, catalogueMessages.lastOption]);
  });
});
