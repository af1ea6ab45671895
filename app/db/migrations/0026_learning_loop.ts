import { sql, type Kysely } from "kysely";

/**
 * The learning loop: a batch becomes the unit of teaching (a catalogue course, a schedule line,
 * its trainers), and staff set assignments that learners hand in and trainers review.
 *
 * Every existing batch keeps its enrolments, fee terms and reports: it only gains `courseSlug`,
 * found by its free-text course matching a catalogue title (ignoring case and spacing); a course
 * no title matches is added to the catalogue hidden, with that title, so nothing is lost and an
 * admin can rename or show it later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("batch")
    .addColumn("courseSlug", "text", (c) => c.references("course.slug"))
    .execute();
  await db.schema
    .alterTable("batch")
    .addColumn("schedule", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await linkBatchesToCourses(db);
  await db.schema.createIndex("batch_course_slug_idx").on("batch").column("courseSlug").execute();

  await db.schema
    .createTable("batch_trainer")
    .addColumn("batchId", "text", (c) => c.notNull().references("batch.id").onDelete("cascade"))
    .addColumn("staffId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("batch_trainer_pk", ["batchId", "staffId"])
    .execute();
  await db.schema.createIndex("batch_trainer_staff_idx").on("batch_trainer").column("staffId").execute();

  await db.schema
    .createTable("assignment")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Null for an assignment set for selected learners outside any one batch.
    .addColumn("batchId", "text", (c) => c.references("batch.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    // Sanitized HTML, like a message's body.
    .addColumn("instructions", "text", (c) => c.notNull())
    .addColumn("dueAt", "text", (c) => c.notNull())
    .addColumn("handIn", "text", (c) => c.notNull().check(sql`"handIn" in ('link', 'file', 'both')`))
    .addColumn("points", "integer")
    .addColumn("createdBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("createdByName", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("assignment_batch_idx").on("assignment").columns(["batchId", "dueAt"]).execute();

  // One learner's assignment: its one status, and the points once accepted.
  await db.schema
    .createTable("learner_assignment")
    .addColumn("assignmentId", "text", (c) => c.notNull().references("assignment.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('not-started', 'submitted', 'late', 'changes-requested', 'accepted')`),
    )
    .addColumn("points", "integer")
    // The latest submission's time: the review queue's order.
    .addColumn("submittedAt", "text")
    .addColumn("reviewedAt", "text")
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("learner_assignment_pk", ["assignmentId", "learnerId"])
    .execute();
  await db.schema
    .createIndex("learner_assignment_learner_idx")
    .on("learner_assignment")
    .columns(["learnerId", "status"])
    .execute();
  await db.schema
    .createIndex("learner_assignment_queue_idx")
    .on("learner_assignment")
    .columns(["status", "submittedAt"])
    .execute();

  await db.schema
    .createTable("submission")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assignmentId", "text", (c) => c.notNull().references("assignment.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("link", "text")
    .addColumn("fileId", "text")
    .addColumn("late", "integer", (c) => c.notNull())
    .addColumn("submittedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("submission_learner_idx")
    .on("submission")
    .columns(["assignmentId", "learnerId", "submittedAt"])
    .execute();

  // A file a learner uploaded for an assignment (through the resumable upload), kept in storage.
  await db.schema
    .createTable("assignment_file")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assignmentId", "text", (c) => c.notNull().references("assignment.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("storageKey", "text", (c) => c.notNull())
    .addColumn("fileName", "text", (c) => c.notNull())
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assignment_file_learner_idx")
    .on("assignment_file")
    .columns(["assignmentId", "learnerId"])
    .execute();

  // The conversation under a learner's assignment: the trainer's feedback, the learner's replies.
  await db.schema
    .createTable("assignment_comment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assignmentId", "text", (c) => c.notNull().references("assignment.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("authorId", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("authorName", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('reply', 'changes', 'accepted', 'feedback')`))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assignment_comment_idx")
    .on("assignment_comment")
    .columns(["assignmentId", "learnerId", "createdAt"])
    .execute();
}

const normalTitle = (title: string) => title.trim().replace(/\s+/g, " ").toLowerCase();

function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "course";
}

/** Sets each batch's `courseSlug` from its free-text course, adding hidden courses for the unmatched. */
async function linkBatchesToCourses(db: Kysely<unknown>) {
  const { rows: courses } = await sql<{ slug: string; title: string; position: number | string }>`
    select slug, title, position from course`.execute(db);
  const { rows: batches } = await sql<{ id: string; course: string }>`select id, course from batch`.execute(db);
  const slugByTitle = new Map(courses.map((course) => [normalTitle(course.title), course.slug]));
  const slugs = new Set(courses.map((course) => course.slug));
  let position = courses.reduce((max, course) => Math.max(max, Number(course.position)), 0);
  const now = new Date().toISOString();
  for (const batch of batches) {
    let slug = slugByTitle.get(normalTitle(batch.course));
    if (!slug) {
      const base = slugOf(batch.course);
      slug = base;
      for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
      slugs.add(slug);
      slugByTitle.set(normalTitle(batch.course), slug);
      position += 1;
      await sql`insert into course (slug, title, duration, price, details, position, shown, "paymentUrl", "updatedAt")
        values (${slug}, ${batch.course.trim().replace(/\s+/g, " ")}, ${""}, ${null}, ${""}, ${position}, ${0}, ${null}, ${now})`.execute(
        db,
      );
    }
    await sql`update batch set "courseSlug" = ${slug} where id = ${batch.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "assignment_comment",
    "assignment_file",
    "submission",
    "learner_assignment",
    "assignment",
    "batch_trainer",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex("batch_course_slug_idx").ifExists().execute();
  await db.schema.alterTable("batch").dropColumn("schedule").execute();
  await db.schema.alterTable("batch").dropColumn("courseSlug").execute();
}
