import { refuse, requireRole } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { actorOf } from "~/core/people";
import {
  addPartner,
  aboutPageText,
  deletePartner,
  deleteTestimonial,
  logoBox,
  photoBox,
  proofForAdmin,
  reencodeImage,
  savePageText,
  saveTestimonial,
} from "./proof.server";
import { deleteSchema, pageSchema, partnerSchema, proofMessages, testimonialSchema } from "./proof-rules";
import { readSiteForm, uploaded } from "./site-form.server";
import { sectionAction, sectionIntents, type SectionIntent } from "./sections/section-intents.server";
import { draftSections } from "./sections/sections.server";

/**
 * /staff/site (admins only): the brand and sections as drafted (with which ones have a draft),
 * testimonials, hiring partners and the About page's text.
 */
export async function loadSiteAdminPage(request: Request) {
  const user = await requireRole(request, "admin");
  const { database, config } = await getServices();
  const [proof, about, drafted] = await Promise.all([
    proofForAdmin(database.db),
    aboutPageText(database.db),
    draftSections(database.db, config.site),
  ]);
  return { user: { id: user.id, level: user.level }, ...proof, about, ...drafted };
}

/** What the forms on /staff/site send as their `intent`: the cases of its action below. */
type SiteAdminIntent =
  "save-testimonial" | "delete-testimonial" | "add-partner" | "delete-partner" | "save-page" | SectionIntent;

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<SiteAdminIntent, true> {}
}

/**
 * The page's changes (admin; one unit of the staff budget of changes), by `intent`. The forms
 * are multipart, for the photo and the logos; each change is audited in its own transaction.
 */
export async function siteAdminAction(request: Request) {
  const access = await readSiteForm(request);
  if (!access.ok) return access.refusal;
  const { form, fields } = access;
  const { database, bus, config } = await getServices();
  const deps = { db: database.db, bus };
  const actor = actorOf(access.user);
  const answer = (result: Awaited<ReturnType<typeof saveTestimonial>>) =>
    result.ok ? result : refuse(result.status, result.message);

  if ((sectionIntents as readonly string[]).includes(fields.intent ?? "")) {
    const sectionDeps = { ...deps, site: config.site, timeZone: config.instituteTimeZone };
    return answer(await sectionAction(sectionDeps, actor, fields.intent as SectionIntent, form, fields));
  }
  switch (fields.intent as SiteAdminIntent | undefined) {
    case "save-testimonial": {
      const parsed = testimonialSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      const bytes = await uploaded(form, "photo");
      if (bytes === "not-a-file") return refuse(415, proofMessages.notAnImage);
      let photo: string | null = null;
      if (bytes) {
        const image = await reencodeImage(bytes, photoBox);
        if (!image.ok) return refuse(image.status, image.message);
        photo = image.dataUrl;
      }
      return answer(await saveTestimonial(deps, actor, { ...parsed.data, photo }));
    }
    case "delete-testimonial": {
      const parsed = deleteSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await deleteTestimonial(deps, actor, parsed.data));
    }
    case "add-partner": {
      const parsed = partnerSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      const bytes = await uploaded(form, "logo");
      if (bytes === "not-a-file") return refuse(415, proofMessages.notAnImage);
      if (!bytes) return refuse(400, proofMessages.logoRequired);
      const image = await reencodeImage(bytes, logoBox);
      if (!image.ok) return refuse(image.status, image.message);
      return answer(await addPartner(deps, actor, { name: parsed.data.name, logo: image.dataUrl }));
    }
    case "delete-partner": {
      const parsed = deleteSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await deletePartner(deps, actor, parsed.data));
    }
    case "save-page": {
      const parsed = pageSchema.safeParse(fields);
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      return answer(await savePageText(deps, actor, parsed.data));
    }
    default:
      return refuse(400, "Unknown action.");
  }
}
