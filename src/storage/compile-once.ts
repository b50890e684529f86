import type { Compilable, CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './database.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Stands for argument `arg` (element `item` of it when it is a list) while a query is compiled. */
class Slot {
  constructor(
    readonly arg: number,
    readonly item: number,
  ) {}

  /** A stand-in turned into a string or number was computed with, not bound: the compiled SQL would be wrong. */
  [Symbol.toPrimitive](): never {
    throw new Error('compileOnce: an argument must be bound as it is, not computed with');
  }
}

/** Compiled shapes kept per query: one per dialect and per length of each list argument. */
const MAX_SHAPES = 256;

/**
 * A query built by Kysely once and run many times with new values. Kysely compiles a query (walks
 * its tree, quotes every identifier) each time it runs, which on the hot paths of sending and
 * delivery (authentication, recording outcomes) costs more CPU than SQLite takes to run the
 * statement; the driver's statement cache (open-database.ts) then finds the prepared statement by
 * its SQL text. Here `build` is called with stand-ins for the arguments and the compiled SQL is
 * kept; each run puts the real values in the stand-ins' places.
 *
 * The SQL must depend only on the dialect and on the length of each array argument (an `in` list
 * or the rows of an insert), never on an argument's value: a query whose shape varies with a value
 * names that variant in `variant`, which `build` is given too. Written by hand because Kysely keeps
 * no compiled form of a query itself.
 */
export function compileOnce<A extends readonly unknown[], O>(
  build: (db: Db, args: A, variant: string) => Compilable<O>,
): (db: Db, args: A, variant?: string) => Promise<QueryResult<O>> {
  // Keyed by the dialect's adapter, shared by a Kysely instance and its transactions.
  const shapes = new WeakMap<object, Map<string, CompiledQuery<O>>>();
  return (db, args, variant = '') => {
    const adapter = db.getExecutor().adapter;
    let byShape = shapes.get(adapter);
    if (byShape === undefined) shapes.set(adapter, (byShape = new Map()));
    let key = variant;
    for (const a of args) key += Array.isArray(a) ? `,${a.length}` : ',';
    let compiled = byShape.get(key);
    if (compiled === undefined) {
      const slots = args.map((a, i) => (Array.isArray(a) ? a.map((_v, j) => new Slot(i, j)) : new Slot(i, -1)));
      compiled = build(db, slots as unknown as A, variant).compile();
      if (byShape.size < MAX_SHAPES) byShape.set(key, compiled);
    }
    const parameters = compiled.parameters.map((p) =>
      p instanceof Slot ? (p.item < 0 ? args[p.arg] : (args[p.arg] as readonly unknown[])[p.item]) : p,
    );
    return db.executeQuery({ ...compiled, parameters });
  };
}
