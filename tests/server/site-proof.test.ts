import sharp from "sharp";
import { afterEach, beforeEach, expect, it } from "vitest";
import { publicSiteTopic, type RealtimeEvent } from "~/realtime/events";
import { aboutPageText, publicProof } from "~/site/proof.server";
import { loadSiteAdminPage, siteAdminAction } from "~/site/site-admin-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type Who = "anonymous" | "learner" | "staff" | "admin";

describeEachDatabase("public site proof: testimonials, hiring partners, About text", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;
  let png: Uint8Array<ArrayBuffer>;

  const user = (who: Who) => (who === "anonymous" ? null : people[who]);

  /** Posts the page's multipart form as this user. */
  const act = (who: Who, fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const cookie = user(who)?.cookie;
    const request = new Request(`${appUrl}/staff/site`, {
      method: "POST",
      headers: { origin: appUrl, ...(cookie ? { cookie } : {}) },
      body: form,
    });
    return outcome<{ ok: boolean; message: string }>(() => siteAdminAction(request));
  };
  const load = (who: Who) => {
    const cookie = user(who)?.cookie;
    return outcome<Awaited<ReturnType<typeof loadSiteAdminPage>>>(() =>
      loadSiteAdminPage(new Request(`${appUrl}/staff/site`, { headers: cookie ? { cookie } : {} })),
    );
  };
  const testimonial = (name: string, consent: boolean) => ({
    intent: "save-testimonial",
    name,
    course: "Full Stack Java",
    quote: `${name} got a job.`,
    ...(consent ? { consent: "on", consentNote: "Signed form, 3 May" } : {}),
  });

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
    png = new Uint8Array(
      await sharp({ create: { width: 800, height: 600, channels: 3, background: "#1e40af" } })
        .png()
        .toBuffer(),
    );
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("lets only admins see the page and change anything: anonymous 401/302, learners and staff 403", async () => {
    expect((await load("anonymous")).status).toBe(302);
    expect((await load("learner")).status).toBe(403);
    expect((await load("staff")).status).toBe(403);
    expect((await load("admin")).status).toBe(200);
    const logo = new File([png], "logo.png", { type: "image/png" });
    const changes: Record<string, string | Blob>[] = [
      testimonial("Priya", true),
      { intent: "add-partner", name: "Acme", logo },
      { intent: "save-page", slug: "about", body: "We teach." },
    ];
    for (const fields of changes) {
      expect((await act("anonymous", fields)).status).toBe(401);
      expect((await act("learner", fields)).status).toBe(403);
      expect((await act("staff", fields)).status).toBe(403);
    }
    expect(await publicProof(handle.db)).toEqual({ testimonials: [], partners: [] });
    for (const fields of changes) expect(await act("admin", fields)).toMatchObject({ status: 200, data: { ok: true } });
    const shown = await publicProof(handle.db);
    expect(shown.testimonials.map((t) => t.name)).toEqual(["Priya"]);
    expect(shown.partners.map((p) => p.name)).toEqual(["Acme"]);
    expect(await aboutPageText(handle.db)).toBe("We teach.");
    // Each change is in the audit log under the admin's name.
    const audit = await handle.db.selectFrom("staff_audit").select(["action", "actorId", "target"]).execute();
    expect(audit.map((row) => [row.action, row.actorId, row.target]).sort()).toEqual(
      [
        ["hiring-partner", people.admin.id, "Acme"],
        ["site-page", people.admin.id, "/about"],
        ["testimonial", people.admin.id, "Priya"],
      ].sort(),
    );
  });

  it("shows a testimonial only while the learner's consent is recorded, and needs a note to record it", async () => {
    expect((await act("admin", testimonial("Rahul", false))).status).toBe(200);
    expect((await publicProof(handle.db)).testimonials).toEqual([]);
    // Consent without saying how it was given is refused.
    const noNote = await act("admin", { ...testimonial("Rahul", false), consent: "on" });
    expect(noNote.status).toBe(400);
    expect(noNote.data.message).toMatch(/how the learner gave consent/);

    const [row] = (await load("admin")).data.testimonials;
    expect(row).toMatchObject({ name: "Rahul", consentAt: null });
    await act("admin", { ...testimonial("Rahul", true), id: row!.id });
    expect((await publicProof(handle.db)).testimonials.map((t) => t.name)).toEqual(["Rahul"]);
    // Withdrawn: gone from the public site, kept for the admins.
    await act("admin", { ...testimonial("Rahul", false), id: row!.id });
    expect((await publicProof(handle.db)).testimonials).toEqual([]);
    expect((await load("admin")).data.testimonials).toHaveLength(1);
  });

  it("re-encodes images with sharp and refuses what is not a PNG, JPEG or WebP, or too large", async () => {
    const events: RealtimeEvent[] = [];
    const stop = h.bus.subscribe(publicSiteTopic, (event) => void events.push(event));
    const photo = new File([png], "me.png", { type: "image/png" });
    expect((await act("admin", { ...testimonial("Asha", true), photo })).status).toBe(200);
    const [shown] = (await publicProof(handle.db)).testimonials;
    expect(shown!.photo).toMatch(/^data:image\/webp;base64,/);
    const stored = Buffer.from(shown!.photo!.split(",")[1]!, "base64");
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 160, 160]);

    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "x.svg", {
      type: "image/svg+xml",
    });
    const text = new File(["not an image"], "x.png", { type: "image/png" });
    for (const logo of [svg, text]) {
      const refused = await act("admin", { intent: "add-partner", name: "Bad", logo });
      expect(refused.status).toBe(415);
      expect(refused.data.message).toBe("Please choose a PNG, JPEG or WebP image.");
    }
    const huge = new File([new Uint8Array(600 * 1024)], "big.png", { type: "image/png" });
    expect((await act("admin", { intent: "add-partner", name: "Big", logo: huge })).status).toBe(413);
    expect((await act("admin", { intent: "add-partner", name: "Nologo" })).status).toBe(400);
    expect((await act("admin", { intent: "add-partner", name: "x".repeat(101), logo: photo })).status).toBe(400);
    expect((await publicProof(handle.db)).partners).toEqual([]);
    // The page caches on every instance heard of the one change that was made.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([{ type: "public-site-changed" }]);
    stop();
  });

  it("deletes testimonials and partners; an unknown id is a 404, a malformed one a 400", async () => {
    await act("admin", testimonial("Kiran", true));
    await act("admin", { intent: "add-partner", name: "Acme", logo: new File([png], "l.png") });
    const page = (await load("admin")).data;
    expect((await act("admin", { intent: "delete-testimonial", id: page.testimonials[0]!.id })).status).toBe(200);
    expect((await act("admin", { intent: "delete-partner", id: page.partners[0]!.id })).status).toBe(200);
    expect((await act("admin", { intent: "delete-partner", id: page.partners[0]!.id })).status).toBe(404);
    expect((await act("admin", { intent: "delete-partner", id: "nope" })).status).toBe(400);
    expect(await publicProof(handle.db)).toEqual({ testimonials: [], partners: [] });
  });
});
