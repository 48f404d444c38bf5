import * as z from 'zod/mini';

/**
 * An answer kept for the same request's retries (an Idempotency-Key's record, a grant's reference, a deletion's
 * record, a score report's result, ...). A retry must answer the first answer byte for byte, but DynamoDB keeps a
 * map's attributes in an order of its own: an answer stored as a map comes back with its keys reordered. So it is
 * stored as its JSON text, beside the attribute that held it before (`<name>_json`), and parses back to the
 * same keys in the same order. Records written before hold the answer itself under `<name>`: still read.
 */

/** The attribute holding the JSON text of the answer that `name` held (`answer` → `answer_json`). */
const textAttribute = (name: string) => `${name}_json`;

/** The answer as stored: its JSON text. */
export const answerText = (answer: unknown): string => JSON.stringify(answer);

/** The attribute to store: the answer's JSON text, under `<name>_json`. */
export const keptAnswer = (answer: unknown, name = 'answer'): Record<string, string> => ({ [textAttribute(name)]: answerText(answer) });

/** The answer a stored item keeps: its JSON text parsed, or (written before) the attribute itself; undefined when neither. */
export function answerKept(item: Record<string, unknown>, name = 'answer'): unknown {
  const text = item[textAttribute(name)];
  return typeof text === 'string' ? JSON.parse(text) : item[name];
}

/**
 * `model` read from a kept answer's JSON text, for the passes that read stored items (an index backfill): the
 * attribute `<name>_json` of items written since, beside `<name>` (the model itself) of items written before.
 */
export const answerTextOf = <T extends z.ZodMiniType>(model: T) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string): unknown => JSON.parse(text)),
    ),
    model,
  );

/** Items whose kept answer is in neither form do not parse (the pass reports them). */
export const eitherForm = (name = 'answer') =>
  z.refine((item: unknown) => {
    const stored = item as Record<string, unknown>;
    return stored[name] !== undefined || stored[textAttribute(name)] !== undefined;
  }, `no ${name}`);
