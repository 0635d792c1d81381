import { is, Param, Placeholder, SQL, sql, StringChunk } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { PgDialect } from "drizzle-orm/pg-core";
import { readLaneOf, rowsOf, type Db, type Tx } from "../db/client";
import { isConnectionLost } from "../db/connectionLost";

const dialect = new PgDialect();

/**
 * Runs a raw statement as a prepared one, on whatever connection `db` (a transaction too) is
 * bound to; answers its rows as the driver hands them over (bigint columns as strings).
 *
 * Why: postgres.js sends a statement that is not prepared as two round trips (parse and
 * describe, then bind and execute), and Postgres parses and plans it every time. A prepared
 * statement is kept per connection and per text: after its first use on a connection it is one
 * round trip, with no parse and (after a few runs) no planning. So the text must not vary from
 * call to call: pass lists as one JSON parameter, never as a variable number of them. (The
 * embedded database has no such cost; there it is an ordinary query.)
 *
 * Query builders get the same with `.prepare(name)` before `.execute()`.
 *
 * On postgres.js the statement goes straight to the driver, as drizzle's execute would send it,
 * without its tracing spans and result cache (the two took a fifth of the server's time per
 * purchase; docs/performance.md). A statement of many parts run on every call of a busy path is
 * better made once, with placeholders (statementOnce): making the purchase's statements on every
 * call cost the server about 110 of its 630 us of CPU a purchase (docs/performance.md).
 */
export async function runPrepared<Row>(db: Db | Tx, name: string, query: SQL): Promise<Row[]> {
  const built = rawQuery(query) ?? dialect.sqlToQuery(query);
  const send = driverOf(db);
  if (!send) return rowsOf<Row>(await db._.session.prepareQuery(built, undefined, name, false).execute());
  return (await send(built.sql, built.params)) as Row[];
}

type PostgresJsUnsafe = (text: string, args: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;

/**
 * On postgres.js, a statement sent as a prepared one on the connection or transaction `db` runs
 * on, straight to the driver (its rows are the driver's own objects), failing as drizzle's
 * execute fails; undefined on the embedded database.
 */
function driverOf(db: Db | Tx): ((text: string, args: unknown[]) => Promise<unknown[]>) | undefined {
  const client = (db._.session as unknown as { client?: { unsafe?: PostgresJsUnsafe } }).client;
  const unsafe = client?.unsafe;
  if (typeof unsafe !== "function") return undefined;
  return async (text, args) => {
    try {
      return await unsafe.call(client, text, args, { prepare: true });
    } catch (error) {
      throw new DrizzleQueryError(text, args, error as Error);
    }
  };
}

/**
 * The text and parameters of a raw statement, the same as dialect.sqlToQuery makes them, for what
 * raw statements are written of: text, nested statements, and values (strings, numbers, bigints,
 * booleans, null), each a parameter in turn. A statement with anything else in it (a column, a
 * table, a drizzle Param, a list, inlined values) is left to sqlToQuery: undefined.
 */
export function rawQuery(query: SQL): { sql: string; params: unknown[] } | undefined {
  const params: unknown[] = [];
  let text = "";
  const add = (chunks: unknown[]): boolean => {
    for (const chunk of chunks) {
      if (chunk instanceof StringChunk) text += chunk.value.join("");
      else if (chunk instanceof SQL) {
        // (`.inlineParams()` writes the values into the text: sqlToQuery's to do.)
        if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams || !add(chunk.queryChunks)) return false;
      } else if (chunk === null || typeof chunk === "string" || typeof chunk === "number" || typeof chunk === "bigint" || typeof chunk === "boolean") {
        params.push(chunk);
        text += `$${params.length}`;
      } else if (chunk !== undefined) return false;
    }
    return true;
  };
  return add(query.queryChunks) ? { sql: text, params } : undefined;
}

const made: { name: string; text: string }[] = [];

/**
 * Every statement statementOnce has made so far in this process (some are made at their first
 * use, one per shape), with its text as Postgres is sent it (placeholders as $1, $2...): for the
 * tests that look at the plans they run on (src/testing/plans.ts).
 */
export const madeStatements = (): readonly { name: string; text: string }[] => made;

/**
 * A raw statement with placeholders (`sql.placeholder(name)`), made once: run it on any database
 * handle or transaction with the placeholders' values. Like runPrepared, without making the text
 * again on every call: for statements of many parts on a busy path (the purchase's).
 */
export function statementOnce<Row>(name: string, query: SQL): (db: Db | Tx, values: Record<string, unknown>) => Promise<Row[]> {
  const built = dialect.sqlToQuery(query);
  made.push({ name, text: built.sql });
  const fill = fillerOf(built.params);
  return async (db, values) => {
    const send = driverOf(db);
    if (!send) return rowsOf<Row>(await db._.session.prepareQuery(built, undefined, name, false).execute(values));
    return (await send(built.sql, fill(values))) as Row[];
  };
}

/** statementOnce's statement bound to `db`: call it with the placeholders' values. */
export function preparedRaw<Row>(db: Db, name: string, query: SQL): (values: Record<string, unknown>) => Promise<Row[]> {
  const run = statementOnce<Row>(name, query);
  return (values) => run(db, values);
}

/**
 * Statements run on every authenticated request, prepared once per database handle: drizzle
 * sends an unprepared query as parse-and-describe first, then bind-and-execute (two round
 * trips on postgres.js); a prepared one is one round trip after its first use on a connection.
 */
export function preparedPer<T>(build: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let statement = made.get(db);
    if (!statement) made.set(db, (statement = build(db)));
    return statement;
  };
}

/** How `gathered` shares out its calls: see there. */
export interface GatherLimits {
  /** The most calls of `many` running at once. */
  inFlight: number;
  /** The most inputs one call of `many` takes. */
  max: number;
  /** The fewest inputs a call of `many` takes while another is running (1: any). */
  minBehind: number;
}

/**
 * Calls answered together. A call made while no call of `many` runs goes at once, alone, so a
 * quiet server answers as fast as without this. Calls made while one runs wait; another call of
 * `many` starts beside the running ones (at most `inFlight` in all) once `minBehind` inputs wait,
 * and once none runs, whatever waits goes at once. A call of `many` takes every waiting input (at
 * most `max`), in order, and answers one output per input, in the same order. The next call of
 * `many` is sent before an ended one's callers are answered, so that it does not wait for their
 * work. When `many` fails, every call it was answering fails with its error.
 *
 * For a read that every request makes (GET /api/auth's member): a statement for ten members
 * costs Postgres and the driver little more than a statement for one. Its statements go on a
 * connection of their own (src/db/client.ts `readLaneOf`), where one sent while another runs
 * queues behind it: worth sending early only with enough asks to pay for its own statement
 * (`minBehind`). Every call still reads what was committed before it was made: the statement
 * that answers it is sent after it.
 */
export function gathered<In, Out>(many: (inputs: In[]) => Promise<Out[]>, limits: GatherLimits): (input: In) => Promise<Out> {
  type Waiting = { input: In; resolve: (output: Out) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let running = 0;
  const pump = () => {
    while (waiting.length > 0 && (running === 0 || (running < limits.inFlight && waiting.length >= limits.minBehind))) {
      const batch = waiting.splice(0, limits.max);
      running++;
      const ended = () => {
        running--;
        pump();
      };
      many(batch.map((w) => w.input)).then(
        (outputs) => {
          ended();
          batch.forEach((w, i) => w.resolve(outputs[i]!));
        },
        (error) => {
          ended();
          batch.forEach((w) => w.reject(error));
        },
      );
    }
  };
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      pump();
    });
}

/**
 * A read made for one [user id, token id] pair at a time, run for many pairs at once: `perPair`
 * selects one pair's row (at most one), reading the pair as `ask.pair` (jsonb: `ask.pair->>0`
 * the user, `ask.pair->>1` the token), and each pair is a subquery of its own (OFFSET 0), read
 * through the primary keys as for one: joined to the list as a whole, Postgres would plan for a
 * list of a hundred and scan whole tables. The pairs asked while such a statement runs go
 * together in the next one (`gathered`, PAIRS_AT_ONCE), on the database's read lane. Answers the
 * pair's row, or undefined.
 */
export function pairsAtOnce<Row>(name: string, perPair: SQL): (db: Db) => (pair: [string, string]) => Promise<Row | undefined> {
  return preparedPer((db) => {
    const statement = preparedRaw<Row & { ord: number }>(
      readLaneOf(db),
      name,
      sql`SELECT ask.ord::integer AS ord, answer.*
        FROM jsonb_array_elements(${sql.placeholder("asks")}::jsonb) WITH ORDINALITY AS ask(pair, ord),
        LATERAL (${perPair} OFFSET 0) AS answer`,
    );
    // The lane's one connection, ended from outside (a restart, a failover), fails what was sent
    // on it, and what is sent before the driver has seen it close: a read, sent again shortly,
    // goes on the connection the driver opens anew.
    const read = async (pairs: [string, string][]) => {
      for (let retry = 0; ; retry++) {
        try {
          return await statement({ asks: JSON.stringify(pairs) });
        } catch (error) {
          if (retry === LANE_RETRY_MS.length || !isConnectionLost(error)) throw error;
          await Bun.sleep(LANE_RETRY_MS[retry]!);
        }
      }
    };
    return gathered(async (pairs: [string, string][]) => inAskOrder(await read(pairs), pairs.length), PAIRS_AT_ONCE);
  });
}

/** The waits before a lane read lost with its connection is sent again. */
const LANE_RETRY_MS = [0, 20, 200];

/**
 * How a `pairsAtOnce` read's statements share out the pairs, per database: the most pairs one
 * reads, and at most three queued on the lane at once, one behind another only with eight pairs
 * or more. A statement's own cost (its set-up, the round trip) is about that of four to five
 * pairs (docs/performance.md): a statement of one pair queued behind a running one
 * would cost more than it saves. Measured with 32 clients asking GET /api/auth: 0.60 to 0.64 of
 * the floor with 2 or 3 in flight and 8 or 12 pairs behind; 0.50 with any number behind; 0.45
 * with one statement at a time.
 */
const PAIRS_AT_ONCE: GatherLimits = { inFlight: 3, max: 64, minBehind: 8 };

/**
 * The rows of a statement that answered `asks` asks (a `gathered` list), one per ask in the asks'
 * order: each row names its ask in `ord` (1: the first); an ask no row answered is undefined.
 */
function inAskOrder<Row extends { ord: number }>(rows: Row[], asks: number): (Row | undefined)[] {
  const answers: (Row | undefined)[] = new Array(asks);
  for (const row of rows) answers[row.ord - 1] = row;
  return answers;
}

/**
 * The driver's arguments of a prepared query for a call's placeholder values: each parameter is
 * a value of the call (a placeholder, as drizzle's fillPlaceholders reads it), or fixed.
 */
function fillerOf(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const fill = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    const [name, encode] = is(p, Placeholder) ? [p.name, (v: unknown) => v] : is(p, Param) && is(p.value, Placeholder) ? [p.value.name, (v: unknown) => p.encoder.mapToDriverValue(v)] : [];
    if (name === undefined) return () => p;
    return (values) => {
      if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
      return encode!(values[name]);
    };
  });
  return (values) => fill.map((value) => value(values));
}
