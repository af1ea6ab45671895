/**
 * The database as Kysely sees it. One interface per table; the migrations in ./migrations
 * create exactly these columns on SQLite and PostgreSQL. Times are ISO-8601 strings.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database {}
