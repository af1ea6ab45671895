import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { aboutUs } from "~/content/site-content";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { publicSiteTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { proofLimits, proofMessages, type TestimonialFields } from "./proof-rules";

export interface ProofDeps {
  db: Db;
  bus: EventBus;
}

/** What the landing page shows: only testimonials whose learner's consent is recorded. */
export async function publicProof(db: Db) {
  const [testimonials, partners] = await Promise.all([
    db
      .selectFrom("testimonial")
      .select(["id", "name", "course", "quote", "photo"])
      .where("consentAt", "is not", null)
      .orderBy("createdAt", "desc")
      .limit(proofLimits.shownTestimonials)
      .execute(),
    db
      .selectFrom("hiring_partner")
      .select(["id", "name", "logo"])
      .orderBy("name")
      .limit(proofLimits.shownPartners)
      .execute(),
  ]);
  return { testimonials, partners };
}

/** The landing page's proof, for its loaders. */
export type PublicProof = Awaited<ReturnType<typeof publicProof>>;

/** What the admin page lists: every entry, consent or not (newest first, at most 100 of each). */
export async function proofForAdmin(db: Db) {
  const [testimonials, partners] = await Promise.all([
    db
      .selectFrom("testimonial")
      .select(["id", "name", "course", "quote", "photo", "consentAt", "consentNote"])
      .orderBy("createdAt", "desc")
      .limit(proofLimits.listed)
      .execute(),
    db.selectFrom("hiring_partner").select(["id", "name", "logo"]).orderBy("name").limit(proofLimits.listed).execute(),
  ]);
  return { testimonials, partners };
}

/** The /about page's text: as staff last saved it, or the institute's About Us copy. */
export async function aboutPageText(db: Db): Promise<string> {
  const row = await db.selectFrom("site_page").select("body").where("slug", "=", "about").executeTakeFirst();
  return row?.body ?? aboutUs.paragraphs.join("\n\n");
}

/** An uploaded image, re-encoded: a WebP data URL, or why it was refused. */
export type Reencoded = { ok: true; dataUrl: string } | { ok: false; status: 413 | 415; message: string };

/**
 * Decodes an upload with sharp (PNG, JPEG or WebP only, at most maxInputPixels) and writes a
 * small WebP of it: whatever the file carried besides the picture (metadata, scripts in an SVG,
 * a polyglot's payload) is gone.
 */
export async function reencodeImage(bytes: Buffer, box: { width: number; height: number; fit: "cover" | "inside" }) {
  if (bytes.length > proofLimits.maxUploadBytes)
    return { ok: false, status: 413, message: proofMessages.imageTooLarge } satisfies Reencoded;
  try {
    const image = sharp(bytes, { limitInputPixels: proofLimits.maxInputPixels, failOn: "error" });
    const { format } = await image.metadata();
    if (format !== "png" && format !== "jpeg" && format !== "webp") throw new Error(`format ${format}`);
    const webp = await image
      .rotate()
      .resize({ width: box.width, height: box.height, fit: box.fit, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { ok: true, dataUrl: `data:image/webp;base64,${webp.toString("base64")}` } satisfies Reencoded;
  } catch {
    return { ok: false, status: 415, message: proofMessages.notAnImage } satisfies Reencoded;
  }
}

export const photoBox = { width: 160, height: 160, fit: "cover" } as const;
export const logoBox = { width: 320, height: 128, fit: "inside" } as const;

/** Runs a change and its audit row in one transaction; then every instance's page cache rebuilds. */
// The audit rows name the entry (targetId is for people: it references user.id).
async function changePublicSite<T>({ db, bus }: ProofDeps, work: (trx: Db) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(work);
  await bus.publish(publicSiteTopic, { type: "public-site-changed" });
  return result;
}

/**
 * Adds a testimonial, or changes one (`id`). Consent ticked keeps its first recorded time (or
 * records now); unticked clears it, and the quote leaves the public site.
 */
export async function saveTestimonial(
  deps: ProofDeps,
  actor: Actor,
  input: TestimonialFields & { photo: string | null },
): Promise<ActionResult> {
  const now = new Date().toISOString();
  const outcome = await changePublicSite(deps, async (trx) => {
    const existing = input.id
      ? await trx.selectFrom("testimonial").select(["consentAt", "photo"]).where("id", "=", input.id).executeTakeFirst()
      : undefined;
    if (input.id && !existing) return "gone" as const;
    const id = input.id ?? randomUUID();
    const values = {
      name: input.name,
      course: input.course,
      quote: input.quote,
      photo: input.photo ?? (input.removePhoto ? null : (existing?.photo ?? null)),
      consentAt: input.consent ? (existing?.consentAt ?? now) : null,
      consentNote: input.consent ? input.consentNote : "",
      updatedAt: now,
    };
    if (existing) await trx.updateTable("testimonial").set(values).where("id", "=", id).execute();
    else
      await trx
        .insertInto("testimonial")
        .values({ id, ...values, createdAt: now })
        .execute();
    await recordAudit(trx, actor, {
      action: "testimonial",
      detail: `${existing ? "changed" : "added"}, ${input.consent ? "with consent" : "no consent, not shown"}`,
      targetId: null,
      target: input.name,
      count: 1,
    });
    return "saved" as const;
  });
  if (outcome === "gone") return { ok: false, status: 404, message: proofMessages.notFound };
  return { ok: true, message: proofMessages.testimonialSaved };
}

export async function deleteTestimonial(deps: ProofDeps, actor: Actor, input: { id: string }): Promise<ActionResult> {
  const deleted = await changePublicSite(deps, async (trx) => {
    const row = await trx.selectFrom("testimonial").select("name").where("id", "=", input.id).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("testimonial").where("id", "=", input.id).execute();
    await recordAudit(trx, actor, {
      action: "testimonial",
      detail: "deleted",
      targetId: null,
      target: row.name,
      count: 1,
    });
    return true;
  });
  return deleted
    ? { ok: true, message: proofMessages.testimonialDeleted }
    : { ok: false, status: 404, message: proofMessages.notFound };
}

export async function addPartner(
  deps: ProofDeps,
  actor: Actor,
  input: { name: string; logo: string },
): Promise<ActionResult> {
  const id = randomUUID();
  await changePublicSite(deps, async (trx) => {
    await trx
      .insertInto("hiring_partner")
      .values({ id, name: input.name, logo: input.logo, createdAt: new Date().toISOString() })
      .execute();
    await recordAudit(trx, actor, {
      action: "hiring-partner",
      detail: "added",
      targetId: null,
      target: input.name,
      count: 1,
    });
  });
  return { ok: true, message: proofMessages.partnerAdded };
}

export async function deletePartner(deps: ProofDeps, actor: Actor, input: { id: string }): Promise<ActionResult> {
  const deleted = await changePublicSite(deps, async (trx) => {
    const row = await trx.selectFrom("hiring_partner").select("name").where("id", "=", input.id).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("hiring_partner").where("id", "=", input.id).execute();
    await recordAudit(trx, actor, {
      action: "hiring-partner",
      detail: "removed",
      targetId: null,
      target: row.name,
      count: 1,
    });
    return true;
  });
  return deleted
    ? { ok: true, message: proofMessages.partnerDeleted }
    : { ok: false, status: 404, message: proofMessages.notFound };
}

export async function savePageText(
  deps: ProofDeps,
  actor: Actor,
  input: { slug: "about"; body: string },
): Promise<ActionResult> {
  const now = new Date().toISOString();
  await changePublicSite(deps, async (trx) => {
    await trx
      .insertInto("site_page")
      .values({ slug: input.slug, body: input.body, updatedBy: actor.id, updatedAt: now })
      .onConflict((conflict) =>
        conflict.column("slug").doUpdateSet({ body: input.body, updatedBy: actor.id, updatedAt: now }),
      )
      .execute();
    await recordAudit(trx, actor, {
      action: "site-page",
      detail: input.slug,
      targetId: null,
      target: `/${input.slug}`,
      count: 1,
    });
  });
  return { ok: true, message: proofMessages.pageSaved };
}
