import type { Kysely } from "kysely";
import { courses, signUpCourses } from "~/content/site-content";

/**
 * The staff-managed catalogue: the pay-after-placement courses the landing page advertises and
 * the course options of the sign-up form. Filled with the specification's content (the same
 * the site showed before), so nothing a visitor sees changes until an admin changes it.
 * Prices are whole rupees; null shows no amount. A null payment link means PAYMENT_URL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("course")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("duration", "text", (c) => c.notNull())
    .addColumn("price", "integer")
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    // 1 shown on the landing page, 0 hidden (kept for the admins).
    .addColumn("shown", "integer", (c) => c.notNull())
    .addColumn("paymentUrl", "text")
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("signup_course_option")
    .addColumn("label", "text", (c) => c.primaryKey())
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();

  const now = new Date().toISOString();
  const typed = db as unknown as Kysely<{
    course: {
      slug: string;
      title: string;
      duration: string;
      price: number | null;
      details: string;
      position: number;
      shown: number;
      paymentUrl: string | null;
      updatedAt: string;
    };
    signup_course_option: { label: string; position: number };
  }>;
  await typed
    .insertInto("course")
    .values(
      courses.map((course, index) => ({
        slug: course.id,
        title: course.title,
        duration: course.duration,
        price: course.price,
        details: course.details,
        position: index + 1,
        shown: 1,
        paymentUrl: null,
        updatedAt: now,
      })),
    )
    .execute();
  await typed
    .insertInto("signup_course_option")
    .values(signUpCourses.map((label, index) => ({ label, position: index + 1 })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("signup_course_option").ifExists().execute();
  await db.schema.dropTable("course").ifExists().execute();
}
