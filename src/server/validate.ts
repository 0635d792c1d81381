import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type * as z from "zod/mini";
import { refusal } from "./errors";

/** Validates a request part with a shared schema; a refusal answers 400 with the first problem in words. */
export const validate = <Target extends keyof ValidationTargets, Schema extends z.ZodMiniType>(target: Target, schema: Schema) =>
  zValidator(target, schema, (result, c) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    const msg =
      !issue || (issue.path.length === 0 && issue.code === "invalid_type")
        ? "The request body must be a JSON object."
        : issue.message;
    return refusal(c, "validation", msg);
  });

/** Path parameters that name nothing we have (an unknown program, level or id) answer 404. */
export const validatePath = <Schema extends z.ZodMiniType>(schema: Schema) =>
  zValidator("param", schema, (result, c) => {
    if (!result.success) return refusal(c, "not_found", result.error.issues[0]?.message);
  });
