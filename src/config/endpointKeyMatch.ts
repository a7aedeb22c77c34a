import { ENDPOINT_LABEL_PATTERN } from '../records/recordCheck.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { looksOpaque } from '../labels/learnedTemplates.js';

// Which endpoint labels a key of an object of endpoints names (endpointKeys.ts
// checks the keys): apart from the key's schema, since a run counts with it,
// a worker thread among them, which loads no zod.

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
