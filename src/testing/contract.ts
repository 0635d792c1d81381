import * as z from "zod/mini";
import { API, type ApiEndpoint } from "../shared/contract";

const ROUTES = Object.values(API).map((endpoint) => ({
  endpoint: endpoint as ApiEndpoint,
  pattern: new RegExp(`^/api${endpoint.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`),
}));

/** The contract's endpoint for a request under /api, if any. */
export function endpointFor(method: string, url: string): ApiEndpoint | undefined {
  const path = new URL(url, "http://test.local").pathname;
  return ROUTES.find((r) => r.endpoint.method === method && r.pattern.test(path))?.endpoint;
}

/**
 * Every success the tests receive must fit its endpoint's schema exactly: it decodes, and
 * encoding what was decoded gives back the same JSON (no field the contract does not name).
 * Throws, naming the endpoint and the problem, when it does not.
 */
export function checkAnswer(method: string, url: string, status: number, body: unknown): void {
  if (status < 200 || status >= 300) return;
  const endpoint = endpointFor(method, url);
  if (!endpoint) return;
  const decoded = z.safeDecode(endpoint.response, body as never);
  if (!decoded.success) throw new Error(`${method} ${url}: the answer does not fit the contract: ${decoded.error.message}`);
  const again = JSON.stringify(z.encode(endpoint.response, decoded.data as never));
  if (again !== JSON.stringify(body)) throw new Error(`${method} ${url}: the answer has fields the contract does not name:\n${JSON.stringify(body)}\n${again}`);
}
