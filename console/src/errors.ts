import { ApiError } from '@game-platform/client';
import * as z from 'zod/mini';
import { en } from 'zod/locales';

// The same English messages the service answers with (core/http/validation.ts).
z.config(en());

/** Messages to show: beside a field (by its name), or for the whole form (`form`). */
export type FieldErrors = Record<string, string>;

/**
 * The service's answer as messages beside the fields: a 4xx about one field names it first (`body.code: …`, or
 * `body.levelCosts.2.amount: …` inside a list), and that message goes beside the field of that name (and, inside
 * a list, also under its full path); anything else is the form's.
 */
export function errorsOfAnswer(error: unknown): FieldErrors {
  if (error instanceof ApiError) {
    const named = /^(?:body|query)\.(([A-Za-z0-9_]+)(?:\.[A-Za-z0-9_]+)*): (.*)$/s.exec(error.message);
    if (error.status >= 400 && error.status < 500 && named) return { [named[2]!]: named[3]!, [named[1]!]: named[3]! };
    return { form: error.message || `The service answered ${error.status}` };
  }
  return { form: error instanceof Error ? error.message : String(error) };
}

/**
 * Checks `values` with the schema the service checks the same request with, before sending it: the first issue
 * of each field, beside that field (and, inside a list, under its full path: `levelCosts.2.amount`). Undefined
 * when the values pass.
 */
export function errorsOfSchema(schema: z.ZodMiniType, values: unknown): FieldErrors | undefined {
  const result = schema.safeParse(values);
  if (result.success) return undefined;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    errors[field] ??= issue.message;
    if (issue.path.length > 1) errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}
