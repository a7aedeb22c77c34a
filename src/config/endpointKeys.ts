import { z } from 'zod';
import { ENDPOINT_LABEL_PATTERN } from '../records/executionRecord.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { looksOpaque } from '../labels/learnedTemplates.js';

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

/** Whether a path segment of a key or a label stands for any value: `:id`, `:orderId`, `{counterpartyId}`. */
export function isParameterSegment(segment: string): boolean {
  return (segment.startsWith(':') && segment.length > 1) || /^\{[^{}/]+\}$/.test(segment);
}

/**
 * Whether an endpoint key (of `expectedStatusesByEndpoint`, of a budgets
 * file's `endpoints`) names an endpoint label: the same label once
 * normalised, or the same method and, segment by segment, the same literal
 * segments, a parameter of the key (`:id` as routes write it, `{id}` as a
 * contract does) standing for a parameter of the label whatever its name
 * (`PUT /counterparties/:id` names `PUT /counterparties/{counterpartyId}`).
 * With `opaqueValues`, a parameter of the key also stands for a value that
 * learning would take for an id ({@link looksOpaque}): what expected
 * statuses need, since whether a call failed is decided as it is counted,
 * before learning has made its template. A key that is not a label names none.
 */
export function keyNamesLabel(key: string, label: string, { opaqueValues = false }: { readonly opaqueValues?: boolean } = {}): boolean {
  if (!ENDPOINT_LABEL_PATTERN.test(key)) return false;
  const wanted = normaliseEndpoint(key);
  if (wanted === label) return true;
  const a = splitLabel(wanted);
  const b = splitLabel(label);
  if (a.method !== b.method || a.segments.length !== b.segments.length) return false;
  return a.segments.every((segment, index) => {
    const value = b.segments[index]!;
    if (!isParameterSegment(segment)) return segment === value;
    return isParameterSegment(value) || (opaqueValues && looksOpaque(value));
  });
}

function splitLabel(label: string): { readonly method: string; readonly segments: readonly string[] } {
  const space = label.indexOf(' ');
  const path = label.slice(space + 1);
  return { method: label.slice(0, space), segments: path === '/' ? [] : path.slice(1).split('/') };
}
