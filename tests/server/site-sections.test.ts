import sharp from "sharp";
import { afterEach, beforeEach, expect, it } from "vitest";
import { publicSiteTopic, type RealtimeEvent } from "~/realtime/events";
import { loadSiteAdminPage, siteAdminAction } from "~/site/site-admin-page.server";
import { publishedBrand } from "~/site/sections/institute.server";
import { draftSections, publishedSections } from "~/site/sections/sections.server";
import { siteImageResponse } from "~/site/sections/site-images.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type Who = "anonymous" | "learner" | "staff" | "admin";

describeEachDatabase("public site brand and sections: drafts, rules, publishing, audit", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;

  const act = (who: Who, fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const cookie = who === "anonymous" ? undefined : people[who].cookie;
    const request = new Request(`${appUrl}/staff/site`, {
      method: "POST",
      headers: { origin: appUrl, ...(cookie ? { cookie } : {}) },
      body: form,
    });
    return outcome<{ ok: boolean; message: string }>(() => siteAdminAction(request));
  };
  const brandFields = (overrides: Record<string, string | Blob> = {}) => ({
    intent: "save-brand",
    name: "Nagpur Code School",
    email: "hello@ncs.example",
    phone: "+91 91234 56789",
    address: "12 Civil Lines, Nagpur 440001",
    whatsapp: "",
    colour: "#14532d",
    ...overrides,
  });
  const image = (width: number, height: number, format: "png" | "jpeg" | "webp" = "png") =>
    sharp({ create: { width, height, channels: 3, background: "#14532d" } })
      .toFormat(format)
      .toBuffer()
      .then((bytes) => new File([new Uint8Array(bytes)], `picture.${format}`, { type: `image/${format}` }));

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
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("stores the configuration's brand at first start, and shows the product's copy until something is published", async () => {
    const stored = await handle.db.selectFrom("site_section").select(["key", "draft"]).execute();
    expect(stored).toEqual([{ key: "brand", draft: null }]);
    const brand = await publishedBrand(handle.db, { ...h.config.site, name: "Changed in .env later" });
    expect(brand).toMatchObject({ name: h.config.site.name, email: h.config.site.email, colour: null, logo: null });
    const sections = await publishedSections(handle.db, h.config.site);
    expect(sections.hero.heading).toBe(
      "We build software for businesses and train the developers who will build the next.",
    );
    expect(sections.services.cards).toHaveLength(8);
    expect(sections.advantages.cards).toHaveLength(13);
    expect(sections.refund.updated).toBe("1 January 2025");
  });

  it("lets only admins load the page or change anything: anonymous 401, learners and staff 403", async () => {
    const load = (who: Who) =>
      outcome(() =>
        loadSiteAdminPage(
          new Request(`${appUrl}/staff/site`, { headers: who === "anonymous" ? {} : { cookie: people[who].cookie } }),
        ),
      );
    expect((await load("learner")).status).toBe(403);
    expect((await load("staff")).status).toBe(403);
    expect((await load("admin")).status).toBe(200);
    const changes: Record<string, string>[] = [
      brandFields(),
      { intent: "save-hero", heading: "Learn to code in Nagpur", imageAlt: "Students", imageMode: "keep" },
      { intent: "save-card", section: "services", label: "Tutoring" },
      { intent: "move-card", section: "advantages", index: "0", direction: "down" },
      { intent: "save-policy", policy: "refund", body: "## Refunds\n\nWithin 7 days." },
      { intent: "publish" },
    ];
    for (const fields of changes) {
      expect((await act("anonymous", fields)).status).toBe(401);
      expect((await act("learner", fields)).status).toBe(403);
      expect((await act("staff", fields)).status).toBe(403);
    }
    expect(await handle.db.selectFrom("staff_audit").select("id").execute()).toEqual([]);
    expect((await draftSections(handle.db, h.config.site)).drafts).toEqual([]);
  });

  it("keeps changes as drafts until published, audits each change and the publishing, and tells every instance", async () => {
    const events: RealtimeEvent[] = [];
    const stop = h.bus.subscribe(publicSiteTopic, (event) => void events.push(event));
    expect(await act("admin", brandFields())).toMatchObject({ status: 200, data: { ok: true } });
    const hero = {
      intent: "save-hero",
      eyebrow: "",
      heading: "Learn to code in Nagpur",
      intro: "Evening batches.",
      imageAlt: "",
      imageMode: "none",
      primaryLabel: "Courses",
      primaryHref: "#training",
      secondaryLabel: "",
      secondaryHref: "",
    };
    expect((await act("admin", hero)).status).toBe(200);
    expect(
      (await act("admin", { intent: "save-policy", policy: "refund", body: "## Refunds\n\n- **Within 7 days**" }))
        .status,
    ).toBe(200);
    // Visitors still see the product's copy; the preview sees the drafts.
    expect((await publishedSections(handle.db, h.config.site)).hero.heading).toMatch(/^We build software/);
    const drafted = await draftSections(handle.db, h.config.site);
    expect(drafted.drafts.sort()).toEqual(["brand", "hero", "refund"]);
    expect(drafted.sections.hero).toMatchObject({ heading: "Learn to code in Nagpur", image: { kind: "none" } });
    expect(events).toEqual([]);

    expect((await act("admin", { intent: "publish" })).data).toEqual({
      ok: true,
      message: "Published. Visitors see it now.",
    });
    const published = await publishedSections(handle.db, h.config.site);
    expect(published.hero.ctas).toEqual([
      { label: "Courses", href: "#training" },
      { label: "", href: "" },
    ]);
    expect(published.brand).toMatchObject({ name: "Nagpur Code School", colour: "#14532d", whatsapp: null });
    expect(published.refund.body).toBe("## Refunds\n\n- **Within 7 days**");
    expect(published.refund.updated).not.toBe("1 January 2025");
    expect(published.refund.updated).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect((await publishedBrand(handle.db, h.config.site)).name).toBe("Nagpur Code School");
    expect((await draftSections(handle.db, h.config.site)).drafts).toEqual([]);
    // Nothing left to publish.
    expect((await act("admin", { intent: "publish" })).status).toBe(409);

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([{ type: "public-site-changed" }]);
    stop();
    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["action", "actorId", "target", "detail"])
      .orderBy("createdAt")
      .execute();
    expect(audit.map((row) => [row.action, row.actorId, row.target])).toEqual([
      ["site-section", people.admin.id, "Brand and contact"],
      ["site-section", people.admin.id, "Welcome header"],
      ["site-section", people.admin.id, "Refund Policy"],
      ["site-publish", people.admin.id, "Public site"],
    ]);
    expect(audit.at(-1)!.detail).toBe("Brand and contact, Welcome header, Refund Policy");
  });

  it("refuses a brand colour white text is hard to read on, saying its contrast", async () => {
    const refused = await act("admin", brandFields({ colour: "#f59e0b" }));
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe(
      "White text on #f59e0b has a contrast of 2.1:1; it needs at least 4.5:1 (WCAG AA). Choose a darker colour.",
    );
    expect((await act("admin", brandFields({ colour: "blue" }))).data.message).toMatch(/as #rrggbb/);
    expect((await act("admin", brandFields({ colour: "#1e40af" }))).status).toBe(200);
    for (const [field, value, message] of [
      ["name", "", /institute's name/],
      ["name", "x".repeat(101), /at most 100/],
      ["email", "not-an-email", /email address/],
      ["phone", "call us", /phone number/],
      ["whatsapp", "12", /WhatsApp/],
      ["address", "a\nb", /one line/i],
    ] as const) {
      const answer = await act("admin", brandFields({ [field]: value }));
      expect(answer.status, field).toBe(400);
      expect(answer.data.message, field).toMatch(message);
    }
  });

  it("re-encodes a logo to WebP and PNG, served for a year; refuses what is not an image, over 5 MB or over 50 megapixels", async () => {
    const answer = await act("admin", brandFields({ logo: await image(800, 200, "jpeg") }));
    expect(answer.status).toBe(200);
    const logo = (await draftSections(handle.db, h.config.site)).sections.brand.logo!;
    expect(logo).toMatchObject({ width: 144, height: 36 });
    const served = await siteImageResponse(handle.db, logo.src.split("/").at(-1));
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe("webp");
    const png = await siteImageResponse(handle.db, logo.png.split("/").at(-1));
    expect((await sharp(Buffer.from(await png.arrayBuffer())).metadata()).format).toBe("png");
    expect((await siteImageResponse(handle.db, "../etc/passwd")).status).toBe(404);

    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], "logo.png", { type: "image/png" });
    expect(await act("admin", brandFields({ logo: svg }))).toMatchObject({
      status: 415,
      data: { message: "Please choose a PNG, JPEG or WebP image." },
    });
    const big = new Uint8Array(5 * 1024 * 1024 + 10);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await act("admin", brandFields({ logo: new File([big], "big.png") }))).status).toBe(413);
    // 8,000 × 7,000 is 56 megapixels, in a few kilobytes.
    const many = await act("admin", brandFields({ logo: await image(8000, 7000) }));
    expect(many).toMatchObject({ status: 413, data: { message: expect.stringMatching(/50 megapixels/) } });
  });

  it("adds, changes, hides and reorders cards, within the limits", async () => {
    const card = (fields: Record<string, string>) =>
      act("admin", { intent: "save-card", section: "services", ...fields });
    expect((await card({ label: "Tutoring", value: "One to one", description: "Weekly.", shown: "on" })).status).toBe(
      200,
    );
    expect((await card({ index: "0", label: "Web apps", shown: "" })).status).toBe(200);
    expect((await act("admin", { intent: "move-card", section: "services", index: "8", direction: "up" })).status).toBe(
      200,
    );
    const services = (await draftSections(handle.db, h.config.site)).sections.services.cards;
    expect(services).toHaveLength(9);
    expect(services[0]).toEqual({ label: "Web apps", value: "", description: "", shown: false });
    expect(services[7]!.label).toBe("Tutoring");
    expect((await card({ index: "20", label: "Gone" })).status).toBe(404);
    expect((await card({ label: "" })).data.message).toBe("Please enter the card's title.");
    expect((await card({ label: "x", description: "y".repeat(601) })).status).toBe(400);
    expect((await act("admin", { intent: "save-card", section: "courses", label: "x" })).status).toBe(400);
    const heading = await act("admin", { intent: "save-hero", heading: "Hi", imageMode: "built-in", imageAlt: "" });
    expect(heading.data.message).toBe("Please describe the picture for people who can't see it.");
    const link = await act("admin", {
      intent: "save-hero",
      heading: "Hi",
      imageMode: "none",
      primaryLabel: "Go",
      primaryHref: "javascript:alert(1)",
    });
    expect(link.status).toBe(400);
    expect((await act("admin", { intent: "save-policy", policy: "terms", body: "x".repeat(5001) })).status).toBe(400);
    expect((await act("admin", { intent: "discard-draft", section: "services" })).status).toBe(200);
    expect((await act("admin", { intent: "discard-draft", section: "services" })).status).toBe(409);
  });
});
