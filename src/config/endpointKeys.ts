import * as z from 'zod';
import { ENDPOINT_LABEL_PATTERN } from '../records/executionRecord.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';

/** What a key of an object of endpoints must be. */
export const NOT_AN_ENDPOINT_LABEL = 'must be an endpoint label of the form "<METHOD> <path>"';

/**
 * An object whose keys are endpoint labels (`endpoints` of a budgets file,
 * `expectedStatusesByEndpoint`), each key's value by `valueSchema`. Two
 * checks the record schema cannot make: zod skips a "__proto__" key (an own
 * key of any parsed JSON object) without a word, so what it holds would be
 * dropped silently; and two keys that are one endpoint once normalised, as
 * records' labels are ("get /a", "GET  /a"), would give one endpoint two
 * values. Both are issues at the key; `each` says what each endpoint is given
 * once (`budgets`). Any other key that is not a label the record refuses.
 * `Input` is the type the object's values are given in, for the types inferred from the schema.
 */
export function endpointKeyedObject<Value extends z.ZodType, Input>(
  valueSchema: Value,
  each: string,
  options: { readonly error?: string } = {},
) {
  const label = z.string().regex(ENDPOINT_LABEL_PATTERN, { error: NOT_AN_ENDPOINT_LABEL });
  const record = z.record(label, valueSchema, options.error === undefined ? undefined : { error: options.error });
  const checkKeys = (value: unknown, context: z.RefinementCtx): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const seen = new Map<string, string>();
    for (const key of Object.keys(value)) {
      if (!ENDPOINT_LABEL_PATTERN.test(key)) {
        if (key === '__proto__') context.addIssue({ code: 'custom', message: NOT_AN_ENDPOINT_LABEL, path: [key] });
        continue;
      }
      const endpoint = normaliseEndpoint(key);
      const first = seen.get(endpoint);
      if (first === undefined) seen.set(endpoint, key);
      else {
        const message = `is the endpoint ${JSON.stringify(endpoint)}, as ${JSON.stringify(first)} is: give each endpoint its ${each} once`;
        context.addIssue({ code: 'custom', message, path: [key] });
      }
    }
    return value;
  };
  // Typed as its input is: the check itself takes anything.
  return z.preprocess<unknown, typeof record, Readonly<Record<string, Input>>>(checkKeys, record);
}
