import * as z from "zod/mini";
import { LEVEL_STATUSES, PROGRAMS, REQUEST_STATUSES, ROLES } from "../constants";
import type { ErrorCode } from "../errorCodes";
import { type Cents, toDollars } from "../money";

/**
 * The API's answers, each defined once (src/shared/contract/*.ts, one file per area of the
 * product). A schema's input side is the wire (JSON: dollars, ISO dates, `_id`); its output side
 * is what the product works with (bigint cents, Date, `id`). The server builds every answer with
 * `encode` (src/server/reply.ts), the client reads every answer with `decode` (src/client/lib/api.ts),
 * so both sides agree by construction; the API tests check every answer they receive against it.
 *
 * Why zod schemas rather than Hono's `hc<AppType>`: the earlier client and other non-TypeScript
 * callers read the same JSON, so the wire form must be a thing we can see and check at run time,
 * and money must be turned back into integer cents on the client, which a type alone cannot do.
 * zod/mini, and one file per area, keep what the dashboard's first load carries small: it reads
 * ./session.ts only; each page's own area arrives with the page.
 */

/** Integer cents inside, dollars (a JSON number with at most 2 decimals) on the wire. */
export const money = z.codec(z.number(), z.bigint(), {
  // Exact for every amount below 2^53 cents: x * 100 is within 0.5 of the integer it stands for.
  decode: (dollars) => BigInt(Math.round(dollars * 100)),
  encode: (cents: Cents) => toDollars(cents),
});

/** A Date inside, an ISO 8601 string on the wire (a text that is no date fails z.date()). */
export const timestamp = z.codec(z.string(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/**
 * An object with an identifier: `id` inside, `_id` on the wire (the name the earlier client
 * reads). The rest of the shape is encoded and decoded as usual.
 */
export function entity<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const wire = z.object({ _id: z.string(), ...shape });
  type Wire = typeof wire;
  type Inside = Omit<z.output<Wire>, "_id"> & { id: string };
  const codec = z.codec(wire, z.custom<Inside>(), {
    decode: (value) => {
      const { _id, ...rest } = value as { _id: string };
      return { id: _id, ...rest } as Inside;
    },
    encode: ({ id, ...rest }) => ({ _id: id, ...rest }) as unknown as z.output<Wire>,
  });
  return codec as unknown as z.ZodMiniCodec<Wire, z.ZodMiniType<Inside, Inside>>;
}

// Closed sets as the wire shows them
export const program = z.enum(PROGRAMS);
export const requestStatus = z.enum(REQUEST_STATUSES);
export const levelStatus = z.enum(LEVEL_STATUSES);
export const role = z.enum(ROLES);

/** The answer of every call that only reports: success texts of money calls, logout, register. */
export const message = z.object({ msg: z.string() });

/** What a schema's answer is inside the product (cents, Dates, `id`). */
export type Answer<Schema extends Schema_> = z.output<Schema>;
/** What a schema's answer is on the wire. */
export type Wire<Schema extends Schema_> = z.input<Schema>;

/** Any schema, classic or mini. */
type Schema_ = z.core.$ZodType;

// Endpoints: method, path (Hono's `:param` form), what it reads and what it answers. The server
// registers its handlers at these paths and answers through `response`; the client calls them
// with `call` (src/client/lib/api.ts).

export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  response: z.core.$ZodType;
  /** The status of a success, when not 200. */
  status?: 201;
  body?: z.core.$ZodType;
  query?: z.core.$ZodType;
  /**
   * The refusals of this call that are about one field of its body, by code: their answer
   * carries that field's name (`field`), so a form shows the sentence at the field.
   */
  fields?: Partial<Record<ErrorCode, string>>;
}

export const endpoint = <const E extends Endpoint>(e: E) => e;

/** The names of a path's `:params`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** A path with its `:params` filled in (each value URL-encoded). */
export function fillPath<Path extends string>(path: Path, params: Record<PathParams<Path>, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String((params as Record<string, string | number>)[name])));
}
