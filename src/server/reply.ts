import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as z from "zod/mini";
import type { ApiEndpoint } from "../shared/contract";

/** What an endpoint answers, inside the product (cents, Dates, `id`). */
export type AnswerOf<E extends ApiEndpoint> = z.output<E["response"]>;

/**
 * The HTTP edge: the one place where an answer becomes its wire form (dollars, ISO dates, `_id`),
 * through the endpoint's schema in src/shared/contract.ts. Fields the schema does not name are
 * not sent.
 */
export function wire<E extends ApiEndpoint>(endpoint: E, value: AnswerOf<E>): unknown {
  return z.encode(endpoint.response, value as never);
}

export function reply<E extends ApiEndpoint>(c: Context, endpoint: E, value: AnswerOf<E>) {
  return c.json(wire(endpoint, value), successStatus(endpoint));
}

/** The status of the endpoint's success: 201 where it creates something, else 200. */
export const successStatus = (endpoint: ApiEndpoint) => ("status" in endpoint ? endpoint.status : 200) as ContentfulStatusCode;
