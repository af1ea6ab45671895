import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * What the driver below needs to know of the versions (change-versions.server.ts): which keys
 * a write to a table raises when its transaction said nothing, and how to raise them.
 */
export interface VersionRules {
  /** The SQL of the statement that records a transaction's touches; never sent to the database. */
  touchSql: string;
  /** The keys a write to this table raises when its transaction named none (null: an unknown table). */
  keysForTable(table: string | null): readonly string[];
  /**
   * The key every committed write raises once, where other processes need it to tell the
   * server's commits from an outside writer's (null: nothing needs it, so nothing is raised).
   */
  serverKey: string | null;
  /** Raises these keys on this connection, inside its transaction, and commits it. */
  raiseAndCommit(connection: DatabaseConnection, keys: readonly string[]): Promise<void>;
}

/** What one transaction (or one statement outside any) wrote and said it touched. */
class Pending {
  readonly tables = new Set<string | null>();
  readonly touched = new Set<string>();
  declared = false;

  /** Every key to raise at commit, sorted (rows locked in one order: no deadlock between two commits). */
  keys(rules: VersionRules): string[] {
    if (this.tables.size === 0 && !this.declared) return [];
    const keys = new Set(this.touched);
    if (!this.declared) for (const table of this.tables) for (const key of rules.keysForTable(table)) keys.add(key);
    if (rules.serverKey !== null) keys.add(rules.serverKey);
    return [...keys].sort();
  }
}

// Reads, and upkeep that changes no row a page shows (PostgreSQL refuses VACUUM in a transaction).
const readHeads = new Set([
  "select",
  "pragma",
  "explain",
  "show",
  "values",
  "vacuum",
  "analyze",
  "reindex",
  "checkpoint",
]);
const dml =
  /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+(?:"?\w+"?\.)?"?(\w+)"?/i;

/**
 * The table a statement writes: undefined for a read, null for a write whose table is not
 * plain (a data-modifying WITH, a schema change), taken as touching everything.
 */
export function writtenTable(sql: string): string | null | undefined {
  const head = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? "";
  if (readHeads.has(head)) return undefined;
  if (head === "with") return /\b(insert|update|delete)\b/i.test(sql) ? null : undefined;
  return dml.exec(sql)?.[1] ?? null;
}

const rollback = CompiledQuery.raw("rollback");

class VersionedConnection implements DatabaseConnection {
  /** Set between begin and commit or rollback. */
  pending: Pending | null = null;
  /** A transaction's begin, sent without waiting for its answer (see beginWithoutWaiting). */
  begun: Promise<void> | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: VersionedDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery, options?: Parameters<DatabaseConnection["executeQuery"]>[1]) {
    const rules = this.driver.rules;
    const touch = query.sql === rules.touchSql;
    const table = touch ? undefined : writtenTable(query.sql);
    if (!touch && table === undefined) {
      const read = this.inner.executeQuery<R>(query, options);
      return this.pending ? this.afterBegin(read) : read;
    }
    if (this.pending) {
      record(this.pending, query, touch, table);
      return touch ? emptyResult<R>() : this.afterBegin(this.inner.executeQuery<R>(query, options));
    }
    // A statement outside a transaction: made one, so its versions commit with it. One that
    // raises none (PostgreSQL's rate limits, sessions) runs alone: two round trips fewer.
    const pending = new Pending();
    record(pending, query, touch, table);
    const keys = pending.keys(rules);
    if (keys.length === 0) return touch ? emptyResult<R>() : this.inner.executeQuery<R>(query, options);
    const begun = this.driver.beginLone(this.inner);
    if (this.driver.beginWithoutWaiting) this.begun = begun;
    else await begun;
    try {
      const result = await this.afterBegin(
        touch ? Promise.resolve(emptyResult<R>()) : this.inner.executeQuery<R>(query, options),
      );
      await this.driver.finish(this.inner, keys);
      return result;
    } catch (error) {
      await this.inner.executeQuery(rollback).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The statement's result, once the begin sent ahead of it has answered: the begin's failure
   * (the connection lost) is the statement's. The statement was sent behind it meanwhile.
   */
  async afterBegin<R>(result: Promise<QueryResult<R>>): Promise<QueryResult<R>> {
    await this.settleBegin(result);
    return result;
  }

  /** Waits for a begin sent without waiting, if any; on its failure, lets `alongside` settle first. */
  async settleBegin(alongside?: Promise<unknown>): Promise<void> {
    const begun = this.begun;
    if (!begun) return;
    this.begun = null;
    try {
      await begun;
    } catch (error) {
      await alongside?.catch(() => undefined);
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: Parameters<DatabaseConnection["streamQuery"]>[2]) {
    if (writtenTable(query.sql) !== undefined) throw new Error("Writes are not streamed: run them with execute().");
    return this.inner.streamQuery<R>(query, chunkSize, options);
  }
}

function record(pending: Pending, query: CompiledQuery, touch: boolean, table: string | null | undefined) {
  if (touch) {
    pending.declared = true;
    for (const key of query.parameters) pending.touched.add(String(key));
  } else if (table !== undefined) pending.tables.add(table);
}

const emptyResult = <R>(): QueryResult<R> => ({ rows: [] });

/**
 * Kysely's driver with every committed write raising the versions of what it changed, in its
 * own transaction: the keys its transaction named (`touch`), or, when it named none, the keys
 * of the tables it wrote (the safe default: everyone's kept answers for a table every page
 * shows). A statement outside a transaction that writes is run in one of its own.
 */
class VersionedDriver implements Driver {
  /** Commits of this process that raised the server key (read by the stamp, SQLite). */
  ownCommits = 0;

  constructor(
    private readonly inner: Driver,
    readonly rules: VersionRules,
    readonly beginWithoutWaiting: boolean,
  ) {}

  init(...args: Parameters<Driver["init"]>) {
    return this.inner.init(...args);
  }
  async acquireConnection(...args: Parameters<Driver["acquireConnection"]>) {
    return new VersionedConnection(await this.inner.acquireConnection(...args), this);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const own = connection as VersionedConnection;
    if (this.beginWithoutWaiting) {
      own.begun = this.inner.beginTransaction(own.inner, settings);
      // Awaited with the transaction's first statement (or its end); never left unhandled.
      own.begun.catch(() => undefined);
    } else {
      await this.inner.beginTransaction(own.inner, settings);
    }
    own.pending = new Pending();
  }
  async commitTransaction(connection: DatabaseConnection) {
    const own = connection as VersionedConnection;
    await own.settleBegin();
    const pending = own.pending ?? new Pending();
    own.pending = null;
    const keys = pending.keys(this.rules);
    if (keys.length === 0) return this.inner.commitTransaction(own.inner);
    await this.rules.raiseAndCommit(own.inner, keys);
    this.ownCommits++;
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    const own = connection as VersionedConnection;
    await own.settleBegin().catch(() => undefined);
    own.pending = null;
    await this.inner.rollbackTransaction(own.inner);
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    await (connection as VersionedConnection).settleBegin();
    await this.inner.savepoint!((connection as VersionedConnection).inner, name, compile);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    await this.inner.rollbackToSavepoint!((connection as VersionedConnection).inner, name, compile);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    await this.inner.releaseSavepoint!((connection as VersionedConnection).inner, name, compile);
  }
  releaseConnection(
    connection: DatabaseConnection,
    ...rest: Parameters<Driver["releaseConnection"]> extends [unknown, ...infer T] ? T : never
  ) {
    return this.inner.releaseConnection((connection as VersionedConnection).inner, ...rest);
  }
  destroy(...args: Parameters<Driver["destroy"]>) {
    return this.inner.destroy(...args);
  }

  /**
   * Begins the transaction a lone statement runs in, as the driver below begins any (with
   * beginWithoutWaiting, the caller sends the statement before this settles, and awaits both).
   */
  beginLone(inner: DatabaseConnection): Promise<void> {
    const begun = this.inner.beginTransaction(inner, {});
    begun.catch(() => undefined);
    return begun;
  }

  /** Raises a lone statement's keys and commits it (its begin was sent). */
  async finish(inner: DatabaseConnection, keys: readonly string[]) {
    await this.rules.raiseAndCommit(inner, keys);
    this.ownCommits++;
  }
}

/**
 * A dialect whose driver raises versions with every write (see VersionedDriver); `driver` once
 * made. With `beginWithoutWaiting` (PostgreSQL, on connections that pipeline their queries), a
 * transaction's begin is sent and the transaction's first statement right behind it, without
 * waiting for the begin's answer in between: one round trip fewer for every transaction.
 */
export function versionedDialect(
  dialect: Dialect,
  rules: VersionRules,
  options: { beginWithoutWaiting?: boolean } = {},
): Dialect & { counts(): { ownCommits: number } } {
  let driver: VersionedDriver | undefined;
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () =>
      (driver = new VersionedDriver(dialect.createDriver(), rules, options.beginWithoutWaiting ?? false)),
    counts: () => ({ ownCommits: driver?.ownCommits ?? 0 }),
  };
}
