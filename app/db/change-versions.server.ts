import { CompiledQuery, sql, type DatabaseConnection, type Kysely } from "kysely";
import type { Database } from "./schema";
import { sessionUserColumns } from "~/core/people";

type Dialect = "sqlite" | "postgres";
import type { VersionRules } from "./versioned-driver.server";

/**
 * The versions the kept signed-in answers are keyed by (decision 016), in `change_version`:
 * - `person:<id>`: what that person's own pages show (their notices, tasks, documents, links,
 *   settings, profile, read marks, placement records…);
 * - `staff`: what the staff pages show besides what everyone sees (the learner list, its
 *   counts, new enquiries): raised with every person's change staff can see;
 * - `shared`: what everyone's pages show (the catalogue, the site, roles, batches…);
 * - `server` (SQLite only): raised once by every committed write of the server, so a process
 *   can tell its siblings' commits from a writer outside the server (data_version sees both);
 * - `outside`: raised by PostgreSQL's triggers for a write made outside the server (psql), and
 *   by every commit of the project's own commands (seed, role, restore: `Writer`).
 * Every committed write raises some of them in its own transaction (versioned-driver.server.ts):
 * those its transaction names with `touch`, else those of the tables it wrote (below).
 */

/** What a write changed, as the pages that show it. */
export interface Touches {
  /** People whose own pages show the change, and staff's pages too (the learner list). */
  people?: readonly string[];
  /** People whose own pages alone show it (their email settings, read marks). */
  privately?: readonly string[];
  /** The staff pages alone (new enquiries). */
  staff?: boolean;
  /** Everyone's pages (the catalogue, the site, roles, batches). */
  everyone?: boolean;
}

const serverKey = "server";
const personKey = (id: string) => `person:${id}`;

/** Past this many people, a write is taken as everyone's (one statement raises every key at commit). */
const mostPeople = 200;

export function keysOf(touches: Touches): string[] {
  const keys = new Set<string>();
  if ((touches.people?.length ?? 0) + (touches.privately?.length ?? 0) > mostPeople) return ["shared"];
  for (const id of touches.people ?? []) keys.add(personKey(id)).add("staff");
  for (const id of touches.privately ?? []) keys.add(personKey(id));
  if (touches.staff) keys.add("staff");
  if (touches.everyone) keys.add("shared");
  return [...keys];
}

/** The statement `touch` sends: the driver records its keys and never sends it on. */
export const touchSql = "select 'upskill:touch' as touch";

export const touchQuery = (touches: Touches) => CompiledQuery.raw(touchSql, keysOf(touches));

/**
 * Which kept pages show each table, for a write whose transaction said nothing (`touch`):
 * "none" for what no kept page shows or the stamp reads itself (the session and role),
 * "staff" for what only staff pages show, "everyone" for the rest. A new table must be named
 * here (the typecheck asks); "everyone" is always safe, only slower.
 */
export const tableShownTo: Record<keyof Database, "none" | "staff" | "everyone"> = {
  session: "none",
  account: "none",
  verification: "none",
  rateLimit: "none",
  rate_limit: "none",
  action_key: "none",
  change_version: "none",
  appSecret: "none",
  mail_job: "none",
  upload_lock: "none",
  resume_upload: "none",
  staff_audit: "none",
  signing_key: "none",
  document_job: "none",
  learner_import: "none",
  // Served by its own route, named in the sections that use it.
  site_image: "none",
  // The published brand is in every page's header.
  site_section: "everyone",
  enquiry: "staff",
  enquiry_event: "staff",
  saved_view: "staff",
  // The checklist on /staff, shown to admins.
  first_run: "staff",
  user: "everyone",
  resume: "everyone",
  profile_photo: "everyone",
  task_link: "everyone",
  message: "everyone",
  offer_letter: "everyone",
  email_preference: "everyone",
  account_deletion: "everyone",
  document: "everyone",
  document_settings: "everyone",
  fee_terms: "everyone",
  batch: "everyone",
  enrolment: "everyone",
  enrolment_change: "everyone",
  agreement: "everyone",
  job_application: "everyone",
  application_stage: "everyone",
  job_offer: "everyone",
  instalment: "everyone",
  payment: "everyone",
  fee_pause: "everyone",
  public_consent: "everyone",
  testimonial: "everyone",
  hiring_partner: "everyone",
  site_page: "everyone",
  course: "everyone",
  signup_course_option: "everyone",
  batch_trainer: "everyone",
  assignment: "everyone",
  learner_assignment: "everyone",
  submission: "everyone",
  assignment_file: "everyone",
  assignment_comment: "everyone",
};

function keysForTable(table: string | null): readonly string[] {
  const shown = table === null ? undefined : (tableShownTo as Record<string, string | undefined>)[table];
  if (shown === "none") return [];
  if (shown === "staff") return ["staff"];
  // Kysely's own bookkeeping (migrations) and anything unknown: everyone.
  return ["shared"];
}

/**
 * Who writes through a handle: the server, or a command run beside it (`npm run seed`, `role`,
 * `restore`, `keys:rotate`), whose commits raise `outside` instead of `server`, so that a
 * running server tells them from its own and its siblings' (outsideWriteMark).
 */
export type Writer = "server" | "outside";

/** The rules the versioned driver follows on this database. */
export function versionRules(dialect: Dialect, writer: Writer = "server"): VersionRules {
  const found =
    dialect === "sqlite"
      ? CompiledQuery.raw("select 1 as found from sqlite_master where type = 'table' and name = 'change_version'")
      : CompiledQuery.raw("select 1 as found where to_regclass('change_version') is not null");
  let ready = false;
  return {
    touchSql,
    // PostgreSQL's triggers tell outside writes by the connection's setting, so there the
    // server's commits raise no shared row: one row raised by every write would make all
    // writers wait on its lock.
    serverKey: writer === "outside" ? "outside" : dialect === "sqlite" ? serverKey : null,
    keysForTable,
    async raiseAndCommit(connection: DatabaseConnection, keys: readonly string[]) {
      if (!ready) ready = (await connection.executeQuery(found)).rows.length > 0;
      const raise = (values: string) =>
        `insert into change_version ("key", "version") values ${values} on conflict ("key") do update set "version" = change_version."version" + 1`;
      if (!ready) {
        // Until the migration made the table (a database being migrated), nothing is raised.
      } else if (dialect === "sqlite") {
        await connection.executeQuery(CompiledQuery.raw(raise(keys.map(() => "(?, 1)").join(", ")), [...keys]));
      } else {
        // One round trip for both: a statement without parameters goes by PostgreSQL's simple
        // protocol, which takes two. The keys are the app's own words, quoted as literals.
        const values = keys.map((key) => `('${key.replaceAll("'", "''")}', 1)`).join(", ");
        await connection.executeQuery(CompiledQuery.raw(`${raise(values)}; commit`));
        return;
      }
      await connection.executeQuery(commitQuery);
    },
  };
}

const commitQuery = CompiledQuery.raw("commit");

/** The row the stamp is made from: the session's person and role, and the versions. */
export interface StampRow {
  role: string | null;
  /** When the session ends (better-auth's expiresAt: an ISO string on SQLite, a date on PostgreSQL). */
  expiresAt: string | Date;
  person: number | string | null;
  shared: number | string | null;
  staff: number | string | null;
  server: number | string | null;
  /** The `outside` version. */
  outside: number | string | null;
  /** SQLite: the file's data_version (null on PostgreSQL). */
  data: number | string | null;
}

/**
 * One indexed read per request: the session (with its person's role) and the versions. On
 * PostgreSQL for many sessions at once (`$1` an array of tokens; rows carry their token), so
 * that concurrent requests share the round trip (coalescedReads).
 */
export function stampSql(dialect: Dialect): string {
  const version = (key: string) => `(select v."version" from change_version v where v."key" = ${key})`;
  const data = dialect === "sqlite" ? "(select data_version from pragma_data_version)" : "null";
  const text =
    `select u."role" as role, s."expiresAt" as "expiresAt", ${version(`'person:' || s."userId"`)} as person, ${version("'shared'")} as shared, ` +
    `${version("'staff'")} as staff, ${version("'server'")} as server, ${version("'outside'")} as outside, ${data} as data `;
  const withUser = `join "user" u on u."id" = s."userId"`;
  if (dialect === "sqlite") return `${text}from session s ${withUser} where s."token" = ?`;
  // On PostgreSQL the row also carries the session as the gate reads it (KeptAnswerStamp's `session`):
  // a render after a change then starts one round trip sooner. On SQLite a read is a call.
  const sessionColumns = [
    's."id" as "sessionId"',
    ...sessionUserColumns.filter((column) => column !== "role").map((column) => `u."${column}" as "${column}"`),
  ];
  // Joined from the tokens asked: `s."token" = any($1)` had PostgreSQL test every session
  // against every token (a scan it costs as cheap while the table is small), four times the time.
  return (
    `${text.replace("select ", `select s."token" as token, ${sessionColumns.join(", ")}, `)}` +
    `from unnest($1::text[]) as asked(token) join session s on s."token" = asked.token ${withUser}`
  );
}

/**
 * Turns the row into the stamp, for a person (role and person version) and what they see
 * (shared; staff's pages also the staff version), with the fallback that writes from outside
 * the server move: the `outside` version, which the project's commands raise (and on
 * PostgreSQL the triggers, for any other program), and on SQLite the epoch of the writes of
 * other programs this process noticed (sqliteEpochs).
 */
export function stampOf(
  row: StampRow,
  epoch: number | null,
  isStaff: (role: string | null) => boolean,
): KeptAnswerStamp {
  const staff = isStaff(row.role) ? String(row.staff ?? 0) : "-";
  const fallback = epoch === null ? String(row.outside ?? 0) : `${row.outside ?? 0}.${epoch}`;
  return {
    stamp: `${row.role ?? ""}|${row.person ?? 0}|${row.shared ?? 0}|${staff}|${fallback}`,
    sessionEndsAt: new Date(row.expiresAt).getTime(),
  };
}

/** What a session's kept answers are keyed by, and when the session ends (read together). */
export interface KeptAnswerStamp {
  stamp: string;
  /** Milliseconds since the epoch; null when the session is gone. */
  sessionEndsAt: number | null;
  /**
   * PostgreSQL: the session as the gate reads it (its id and end, the user's `sessionUserColumns`),
   * read with the stamp, for the render that follows a miss (sessionReadWithStamp).
   */
  session?: Readonly<Record<string, unknown>>;
}

export const signedOut: KeptAnswerStamp = { stamp: "signed-out", sessionEndsAt: null };

/**
 * SQLite's fallback for writes from other programs (the sqlite3 shell): an epoch that every
 * stamp and outside mark of this process carries. data_version changes with any other
 * connection's commit; a change this process cannot put down to the server (the server version
 * moved by no more than this process's own commits) nor to the project's commands (the
 * `outside` version, which they raise and every stamp carries, did not move) moves the epoch.
 * data_version also changes when another process restarts the write-ahead log after a
 * checkpoint, inside a write that has not committed yet, and so has not raised the server
 * version: such a reading is unsettled (`observe` gives no epoch), and is read again holding
 * the write lock, when no write is half done (`settle`). Otherwise every checkpoint would drop
 * every kept answer of the other processes. `movedAt` says when the epoch last moved: the epoch
 * is this process's own, so an answer another process made before then is not to be kept here.
 */
export function sqliteEpochs(ownCommits: () => number, now: () => number = Date.now) {
  let last: { data: string; server: string; outside: string; own: number } | undefined;
  let epoch = 0;
  let movedAt = 0;
  const reading = (versions: SqliteVersions) => ({
    data: String(versions.data ?? 0),
    server: String(versions.server ?? 0),
    outside: String(versions.outside ?? 0),
  });
  const unexplained = (now: ReturnType<typeof reading>, own: number) =>
    last !== undefined &&
    now.data !== last.data &&
    now.outside === last.outside &&
    Number(now.server) - Number(last.server) - (own - last.own) <= 0;
  return {
    /** The epoch after this reading, or undefined when it must be settled. */
    observe(versions: SqliteVersions): number | undefined {
      const now = reading(versions);
      const own = ownCommits();
      if (unexplained(now, own)) return undefined;
      last = { ...now, own };
      return epoch;
    },
    /** The epoch after a reading made holding the write lock: an unexplained change is from outside. */
    settle(versions: SqliteVersions): number {
      const next = reading(versions);
      const own = ownCommits();
      if (unexplained(next, own)) {
        epoch++;
        movedAt = now();
      }
      last = { ...next, own };
      return epoch;
    },
    /** When the epoch last moved (milliseconds since the epoch of the clock), 0 if never. */
    movedAt: () => movedAt,
  };
}

/** What sqliteEpochs reads: the file's data_version, and the `server` and `outside` versions. */
export interface SqliteVersions {
  data: number | string | null;
  server: number | string | null;
  outside: number | string | null;
}

/** The row the outside-write mark is made from (SQLite: with the file's data_version and the server version). */
export type OutsideRow = SqliteVersions;

/** One read of the versions that say a write came from outside the server. */
export function outsideSql(dialect: Dialect): string {
  const version = (key: string) => `(select v."version" from change_version v where v."key" = '${key}')`;
  return dialect === "sqlite"
    ? `select ${version("outside")} as outside, ${version("server")} as server, (select data_version from pragma_data_version) as data`
    : `select ${version("outside")} as outside, null as server, null as data`;
}

/**
 * PostgreSQL: the statement trigger that raises "outside" for a write made outside the server,
 * on every table of the schema that lacks it (run after the migrations, so a new table gets it).
 */
export async function watchOutsideWrites(db: Kysely<Database>): Promise<void> {
  await sql`
    do $$
    declare t record;
    begin
      for t in
        select c.relname from pg_class c
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
          and c.relname not in ('change_version', 'kysely_migration', 'kysely_migration_lock')
          and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'upskill_outside_write')
      loop
        -- Two instances starting at once may both find a table without it: the second is told so.
        begin
          execute format('create trigger upskill_outside_write after insert or update or delete or truncate on %I '
            'for each statement execute function upskill_outside_write()', t.relname);
        exception when duplicate_object then null;
        end;
      end loop;
    end $$`.execute(db);
}
