import { sql, type Kysely } from "kysely";

/**
 * The learner dashboard's data: one resume and one profile photo per learner, the task links
 * they submit, the messages staff send them, and their offer letter. Every time is ISO-8601
 * text (toISOString, so text order is time order) on both databases. Each index serves a query
 * the learner or staff dashboard makes; the comment beside it names the query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("resume")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("storageKey", "text", (c) => c.notNull().unique())
    .addColumn("fileName", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("uploadedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("profile_photo")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    // Random and unguessable: the photo's URL is /api/learner/photos/<storage key's name>.
    .addColumn("storageKey", "text", (c) => c.notNull().unique())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("task_link")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("link", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  // A learner's links, newest first (learner panel, staff learner card).
  await db.schema
    .createIndex("task_link_learner_created_idx")
    .on("task_link")
    .columns(["learnerId", "createdAt"])
    .execute();

  await db.schema
    .createTable("message")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('notice', 'task', 'certificate')`))
    .addColumn("body", "text", (c) => c.notNull())
    // Staff who sent it; kept as null when that account is deleted, so the learner keeps the message.
    .addColumn("sentBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("sentAt", "text", (c) => c.notNull())
    .addColumn("readAt", "text")
    .execute();
  // A learner's messages of one kind, newest first (popups); counts per kind (staff card); clear by kind.
  await db.schema
    .createIndex("message_learner_kind_sent_idx")
    .on("message")
    .columns(["learnerId", "kind", "sentAt"])
    .execute();
  // The unread badge: only unread rows are indexed, so the count stays cheap as messages pile up.
  await db.schema
    .createIndex("message_unread_idx")
    .on("message")
    .columns(["learnerId", "kind"])
    .where(sql.ref("readAt"), "is", null)
    .execute();

  await db.schema
    .createTable("offer_letter")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("updatedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["offer_letter", "message", "task_link", "profile_photo", "resume"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
