import { randomUUID } from "node:crypto";
import type { Compilable, CompiledQuery } from "kysely";
import type { Db } from "./database.server";
import { preparedStatementNames } from "./prepared-statements.server";

interface Compiled {
  query: CompiledQuery;
  /** For each bound value: the argument it takes, or undefined for a constant of the query. */
  slots: (number | undefined)[];
}

/**
 * A read whose shape never changes, compiled to SQL once per database and then run with only
 * its values bound. Kysely builds and compiles a query on every call, a good part of a signed-in
 * request's own time; the reads every signed-in request makes skip that. Each argument must
 * reach the SQL as a bound value, unchanged (checked when the query is first compiled).
 */
export function compiledOnce<Args extends string[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const byDatabase = new WeakMap<Db, Compiled>();
  const compile = (db: Db, count: number): Compiled => {
    const markers = Array.from({ length: count }, () => `\u0000argument:${randomUUID()}`) as Args;
    const query = build(db, ...markers).compile();
    const slots = query.parameters.map((value) => {
      const index = markers.indexOf(value as string);
      return index === -1 ? undefined : index;
    });
    for (let index = 0; index < count; index++) {
      if (!slots.includes(index)) throw new Error(`compiledOnce: argument ${index} is not bound as it was given`);
    }
    if (!preparedStatementNames.has(query.sql)) {
      preparedStatementNames.set(query.sql, `upskill_${preparedStatementNames.size + 1}`);
    }
    return { query, slots };
  };
  return async (db, ...args) => {
    let compiled = byDatabase.get(db);
    if (!compiled) byDatabase.set(db, (compiled = compile(db, args.length)));
    const { query, slots } = compiled;
    const parameters = slots.map((slot, index) => (slot === undefined ? query.parameters[index] : args[slot]));
    const result = await db.executeQuery<Row>({ ...query, parameters } as CompiledQuery<Row>);
    return result.rows;
  };
}
