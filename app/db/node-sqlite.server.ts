import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { SqliteAdapter, SqliteDialect, type SqliteDatabase, type SqliteStatement } from "kysely";

/**
 * node:sqlite cannot bind booleans and silently binds a Date as NULL, so every parameter
 * goes through here: booleans become 0/1 and dates ISO-8601 strings.
 */
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value as SQLInputValue;
}

/** Enough for every distinct query the app makes; `in (?, ?, …)` lists of odd lengths age out. */
export const preparedStatementLimit = 500;

interface Prepared {
  statement: StatementSync;
  reader: boolean;
}

/**
 * Adapts node:sqlite's DatabaseSync to the interface Kysely's SqliteDialect expects. Preparing
 * a statement costs more than running most of ours, so statements are kept by SQL text (least
 * recently used dropped first). all() and run() finish before they return, so one statement
 * serves every caller; iterate() gets a statement of its own, because running a statement again
 * invalidates an iterator still open on it.
 */
export function adaptNodeSqlite(db: DatabaseSync): SqliteDatabase {
  const prepared = new Map<string, Prepared>();
  const cached = (sql: string): Prepared => {
    let entry = prepared.get(sql);
    if (entry) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      prepared.delete(sql);
    } else {
      const statement = db.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (prepared.size >= preparedStatementLimit) prepared.delete(prepared.keys().next().value!);
    }
    prepared.set(sql, entry);
    return entry;
  };
  return {
    close() {
      prepared.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      // Kysely opens transactions with a plain (deferred) "begin". One that reads first and then
      // writes fails at once with SQLITE_BUSY if another process (npm run role, a backup) wrote
      // in between; "begin immediate" takes the write lock up front and waits its busy timeout.
      const { statement, reader } = cached(sql === "begin" ? "begin immediate" : sql);
      return {
        reader,
        all: (parameters) => statement.all(...parameters.map(toSqlite)) as unknown[],
        run: (parameters) => statement.run(...parameters.map(toSqlite)),
        iterate: (parameters) => db.prepare(sql).iterate(...parameters.map(toSqlite)) as IterableIterator<unknown>,
      };
    },
  };
}

/**
 * SQLite changes schemas inside transactions, but Kysely's adapter says it can't, so its
 * Migrator would run each statement on its own and a failed migration would leave half of
 * itself behind. Saying so makes the Migrator run every pending migration in one transaction
 * ("begin immediate", see above): all of them are kept, or none.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect over node:sqlite (adaptNodeSqlite), with transactional migrations. */
export class NodeSqliteDialect extends SqliteDialect {
  constructor(db: DatabaseSync) {
    super({ database: adaptNodeSqlite(db) });
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
