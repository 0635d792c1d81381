/** Outcome of one HTTP call as a client sees it: an answer, or nothing (connection lost). */
export type Outcome = { kind: "answered"; status: number; body: any } | { kind: "lost" };

export async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (token) headers["x-auth-token"] = token;
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // Long enough for a burst of argon2 logins on two cores; a shorter one made clients give up
      // and retry work the server was still doing, until nothing finished.
      signal: AbortSignal.timeout(90_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { kind: "answered", status: res.status, body: parsed };
  } catch {
    return { kind: "lost" };
  }
}
