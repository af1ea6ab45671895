import type { Db } from "~/db/database.server";
import { compiledOnce } from "~/db/compiled-once.server";
import { formatRupees } from "~/core/money";
import type { EventBus } from "~/realtime/bus.server";
import { publicSiteTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { catalogueLimits, catalogueMessages, registerUrl, slugOf, type CourseFields } from "./catalogue-rules";
import type { CourseChoice } from "./course-choice";
import { feeTermsLine } from "~/placement/fee-terms";
import { joinedTerms, termsColumns, termsFor } from "./course-terms.server";
import { priceTermsDisagreement } from "./price-and-terms";

export interface CatalogueDeps {
  db: Db;
  bus: EventBus;
}

const optionRows = compiledOnce((db: Db) =>
  db.selectFrom("signup_course_option").select("label").orderBy("position").orderBy("label"),
);

/**
 * The courses the sign-up form offers, in order: what the form lists and what sign-up, profile
 * changes and the CSV import accept. Read on every dashboard, so compiled once.
 */
export async function signUpCourseOptions(db: Db): Promise<string[]> {
  return (await optionRows(db)).map((row) => row.label);
}

/**
 * The landing page's course cards: the shown courses in order, prices written the Indian way,
 * and the pay-after-placement terms line of a course that has terms.
 */
export async function advertisedCourses(db: Db, defaultPaymentUrl: string) {
  const rows = await db
    .selectFrom("course")
    .leftJoin("fee_terms", "fee_terms.id", "course.termsId")
    .select(["course.slug", "course.title", "course.duration", "course.price", "course.details", "course.paymentUrl"])
    .select(termsColumns)
    .where("course.shown", "=", 1)
    .orderBy("course.position")
    .orderBy("course.slug")
    .execute();
  return rows.map((row) => {
    const terms = joinedTerms(row);
    return {
      id: row.slug,
      title: row.title,
      duration: row.duration,
      details: row.details,
      // pg hands integers back as numbers for int4; Number() keeps it one type either way.
      priceText: row.price === null ? null : formatRupees(Number(row.price) * 100),
      termsLine: terms ? feeTermsLine(terms) : null,
      registerUrl: registerUrl(row.paymentUrl ?? defaultPaymentUrl, row.slug),
    };
  });
}

export type AdvertisedCourse = Awaited<ReturnType<typeof advertisedCourses>>[number];

/**
 * Everything the editor shows: every course, shown or not, with its fee terms; the sign-up
 * options; the fee terms a course may take; and the warnings.
 */
export async function catalogueForAdmin(db: Db) {
  const [courses, options, terms, papBatches] = await Promise.all([
    db
      .selectFrom("course")
      .leftJoin("fee_terms", "fee_terms.id", "course.termsId")
      .select([
        "course.slug",
        "course.title",
        "course.duration",
        "course.price",
        "course.details",
        "course.position",
        "course.shown",
        "course.paymentUrl",
        "course.termsId",
      ])
      .select(termsColumns)
      .orderBy("course.position")
      .orderBy("course.slug")
      .execute(),
    signUpCourseOptions(db),
    db.selectFrom("fee_terms").select(["id", "name"]).orderBy("createdAt", "desc").limit(200).execute(),
    db
      .selectFrom("batch")
      .select(["courseSlug", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("payment", "=", "pap")
      .groupBy("courseSlug")
      .execute(),
  ]);
  const offered = new Set(options);
  const papBatchesOf = new Map(papBatches.map((row) => [row.courseSlug, Number(row.n)]));
  const list = courses.map((course) => {
    const price = course.price === null ? null : Number(course.price);
    const courseTerms = joinedTerms(course);
    return {
      slug: course.slug,
      title: course.title,
      duration: course.duration,
      price,
      details: course.details,
      position: course.position,
      shown: Boolean(course.shown),
      paymentUrl: course.paymentUrl,
      termsId: course.termsId,
      termsName: course.termsName,
      termsLine: courseTerms ? feeTermsLine(courseTerms) : null,
      disagreement: priceTermsDisagreement({
        price,
        terms: courseTerms,
        papBatches: papBatchesOf.get(course.slug) ?? 0,
      }),
    };
  });
  return {
    courses: list,
    options,
    terms,
    /** Shown courses a visitor can't pick at sign-up: no option has the same title. */
    missingOptions: list.filter((course) => course.shown && !offered.has(course.title)).map((course) => course.title),
    /** Shown courses whose card's price and fee terms disagree, with why (`priceTermsDisagreement`). */
    disagreements: list.flatMap((course) =>
      course.shown && course.disagreement ? [{ title: course.title, why: course.disagreement }] : [],
    ),
  };
}

/**
 * Runs a change and its audit row in one transaction; after it commits, every instance's
 * anonymous page cache rebuilds (a refused change publishes nothing).
 */
function changeCatalogue(deps: CatalogueDeps, work: (trx: Db) => Promise<ActionResult>): Promise<ActionResult> {
  return inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const result = await work(trx);
    if (result.ok) await bus.publish(publicSiteTopic, { type: "public-site-changed" });
    return result;
  });
}

const refused = (status: 400 | 404 | 409, message: string): ActionResult => ({ ok: false, status, message });

/** The audit's words for a course's fields: what a reader of the log needs to see changed. */
function describe(fields: CourseFields, termsName: string | null): string {
  const price = fields.price === null ? "no price" : formatRupees(fields.price * 100);
  const terms = termsName === null ? "no fee terms" : `fee terms ${termsName}`;
  return `${fields.duration}, ${price}, ${terms}, ${fields.shown ? "shown" : "hidden"}${fields.paymentUrl ? `, pays at ${fields.paymentUrl}` : ""}`;
}

async function titleTaken(trx: Db, title: string, exceptSlug: string | null): Promise<boolean> {
  const rows = await trx.selectFrom("course").select(["slug", "title"]).execute();
  return rows.some((row) => row.slug !== exceptSlug && row.title.toLowerCase() === title.toLowerCase());
}

export async function saveCourse(
  deps: CatalogueDeps,
  actor: Actor,
  input: CourseFields & { slug: string },
): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const existing = await trx
      .selectFrom("course")
      .select(["title", "termsId"])
      .where("slug", "=", input.slug)
      .executeTakeFirst();
    if (!existing) return refused(404, catalogueMessages.courseGone);
    if (await titleTaken(trx, input.title, input.slug)) return refused(409, catalogueMessages.titleTaken);
    const terms = await termsFor(trx, input.termsId, existing.termsId === null ? null : input.slug);
    if ("ok" in terms) return terms;
    await trx
      .updateTable("course")
      .set({
        title: input.title,
        duration: input.duration,
        price: input.price,
        details: input.details,
        shown: input.shown ? 1 : 0,
        paymentUrl: input.paymentUrl,
        termsId: input.termsId,
        updatedAt: new Date().toISOString(),
      })
      .where("slug", "=", input.slug)
      .execute();
    await recordAudit(trx, actor, {
      action: "course",
      detail: `changed: ${describe(input, terms.name)}`,
      targetId: null,
      target: existing.title === input.title ? input.title : `${existing.title} → ${input.title}`,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.courseSaved };
  });
}

/** A new course, last in the order, under a slug made from its title (kept if the title changes). */
export async function addCourse(deps: CatalogueDeps, actor: Actor, input: CourseFields): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const rows = await trx.selectFrom("course").select(["slug", "position"]).execute();
    if (rows.length >= catalogueLimits.courses) return refused(409, catalogueMessages.tooManyCourses);
    if (await titleTaken(trx, input.title, null)) return refused(409, catalogueMessages.titleTaken);
    const terms = await termsFor(trx, input.termsId, null);
    if ("ok" in terms) return terms;
    const taken = new Set(rows.map((row) => row.slug));
    const base = slugOf(input.title);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    await trx
      .insertInto("course")
      .values({
        slug,
        title: input.title,
        duration: input.duration,
        price: input.price,
        details: input.details,
        position: Math.max(0, ...rows.map((row) => Number(row.position))) + 1,
        shown: input.shown ? 1 : 0,
        paymentUrl: input.paymentUrl,
        termsId: input.termsId,
        updatedAt: new Date().toISOString(),
      })
      .execute();
    await recordAudit(trx, actor, {
      action: "course",
      detail: `added: ${describe(input, terms.name)}`,
      targetId: null,
      target: input.title,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.courseAdded };
  });
}

/** The keys in their new order once `value` swaps places with its neighbour, or why it can't. */
function swapped(keys: string[], value: string, direction: "up" | "down"): string[] | "gone" | "at-end" {
  const index = keys.indexOf(value);
  if (index === -1) return "gone";
  const neighbour = direction === "up" ? index - 1 : index + 1;
  if (neighbour < 0 || neighbour >= keys.length) return "at-end";
  const order = [...keys];
  [order[index], order[neighbour]] = [order[neighbour]!, value];
  return order;
}

export async function moveCourse(
  deps: CatalogueDeps,
  actor: Actor,
  input: { slug: string; direction: "up" | "down" },
): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const course = await trx.selectFrom("course").select("title").where("slug", "=", input.slug).executeTakeFirst();
    if (!course) return refused(404, catalogueMessages.courseGone);
    const rows = await trx.selectFrom("course").select("slug").orderBy("position").orderBy("slug").execute();
    const order = swapped(
      rows.map((row) => row.slug),
      input.slug,
      input.direction,
    );
    if (typeof order === "string") return refused(400, catalogueMessages.cannotMove);
    // Every row renumbered, so positions that ever tied still come out in one clean order.
    for (const [index, slug] of order.entries())
      await trx
        .updateTable("course")
        .set({ position: index + 1 })
        .where("slug", "=", slug)
        .execute();
    await recordAudit(trx, actor, {
      action: "course",
      detail: `moved ${input.direction}`,
      targetId: null,
      target: course.title,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.courseMoved };
  });
}

export async function addSignUpOption(
  deps: CatalogueDeps,
  actor: Actor,
  input: { label: string },
): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const rows = await trx.selectFrom("signup_course_option").select(["label", "position"]).execute();
    if (rows.length >= catalogueLimits.options) return refused(409, catalogueMessages.tooManyOptions);
    if (rows.some((row) => row.label.toLowerCase() === input.label.toLowerCase()))
      return refused(409, catalogueMessages.optionTaken);
    await trx
      .insertInto("signup_course_option")
      .values({ label: input.label, position: Math.max(0, ...rows.map((row) => Number(row.position))) + 1 })
      .execute();
    await recordAudit(trx, actor, {
      action: "sign-up-option",
      detail: "added",
      targetId: null,
      target: input.label,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.optionAdded };
  });
}

/** Takes a course off the sign-up form; learners who chose it keep it on their profile. */
export async function removeSignUpOption(
  deps: CatalogueDeps,
  actor: Actor,
  input: { label: string },
): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const rows = await trx.selectFrom("signup_course_option").select("label").execute();
    if (!rows.some((row) => row.label === input.label)) return refused(404, catalogueMessages.optionGone);
    if (rows.length === 1) return refused(409, catalogueMessages.lastOption);
    await trx.deleteFrom("signup_course_option").where("label", "=", input.label).execute();
    await recordAudit(trx, actor, {
      action: "sign-up-option",
      detail: "removed",
      targetId: null,
      target: input.label,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.optionRemoved };
  });
}

export async function moveSignUpOption(
  deps: CatalogueDeps,
  actor: Actor,
  input: { label: string; direction: "up" | "down" },
): Promise<ActionResult> {
  return changeCatalogue(deps, async (trx) => {
    const rows = await trx
      .selectFrom("signup_course_option")
      .select("label")
      .orderBy("position")
      .orderBy("label")
      .execute();
    const order = swapped(
      rows.map((row) => row.label),
      input.label,
      input.direction,
    );
    if (order === "gone") return refused(404, catalogueMessages.optionGone);
    if (order === "at-end") return refused(400, catalogueMessages.cannotMove);
    for (const [index, label] of order.entries())
      await trx
        .updateTable("signup_course_option")
        .set({ position: index + 1 })
        .where("label", "=", label)
        .execute();
    await recordAudit(trx, actor, {
      action: "sign-up-option",
      detail: `moved ${input.direction}`,
      targetId: null,
      target: input.label,
      count: 1,
    });
    return { ok: true, message: catalogueMessages.optionMoved };
  });
}

/** Every catalogue course, shown or hidden, for a picker (a batch's course is chosen from these). */
export function courseChoices(db: Db): Promise<CourseChoice[]> {
  return db.selectFrom("course").select(["slug", "title"]).orderBy("position").orderBy("slug").limit(1_000).execute();
}
