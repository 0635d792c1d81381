import type { z } from "zod";

/** The first message per top-level field of a failed schema parse, for showing under each input. */
export function fieldErrors<T extends string>(error: z.ZodError): Partial<Record<T, string>> {
  const out: Partial<Record<T, string>> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === "string" && !(key in out)) out[key as T] = issue.message;
  }
  return out;
}
