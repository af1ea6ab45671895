import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Accounts: the tables better-auth reads and writes (user, session, account, verification,
 * rateLimit), with the user's own fields; per-email attempt counters; generated secrets.
 * Column names are better-auth's. Times: timestamptz on PostgreSQL (better-auth hands pg Date
 * objects), ISO-8601 text on SQLite (better-auth stores ISO strings there).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = postgres ? "timestamptz" : "text";
  const bool = postgres ? "boolean" : "integer";

  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", bool, (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .addColumn("username", "text")
    .addColumn("phone", "text")
    .addColumn("course", "text")
    .addColumn("gender", "text")
    // Null or empty: a learner. Only the role command sets it.
    .addColumn("role", "text")
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", time, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("session_userId_idx").on("session").column("userId").execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", time)
    .addColumn("refreshTokenExpiresAt", time)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_userId_idx").on("account").column("userId").execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", time, (c) => c.notNull())
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();

  // Rate-limit counters, shared by every instance: better-auth's per-IP keys and our per-email ones.
  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("lastRequest", "bigint", (c) => c.notNull())
    .execute();

  // Our per-email attempt counters (sign-in, sign-up, reset), apart from better-auth's table
  // because better-auth prunes its rows after its own, shorter, windows.
  await db.schema
    .createTable("emailRateLimit")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("windowStart", "bigint", (c) => c.notNull())
    .execute();

  // Secrets generated on first start (the session-signing key when AUTH_SECRET is not set),
  // so that every instance on this database signs alike.
  await db.schema
    .createTable("appSecret")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}
