import type { ServerProcess } from "../../scripts/chaos/servers";

/**
 * For the tests that start real server processes on one Postgres (src/server/*-processes.test.ts):
 * a free port, and a call of a server's API answering status and JSON body.
 */

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const { port } = probe;
  await probe.stop(true);
  return port!;
}

export async function api<T = any>(server: ServerProcess, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { "x-auth-token": token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}
