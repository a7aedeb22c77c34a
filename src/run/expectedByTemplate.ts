import { isParameterSegment, keyNamesLabel } from '../config/endpointKeyMatch.js';
import type { StatusSet } from '../records/statusList.js';

/**
 * Expected statuses written for a template (`GET /usuarios/:id`, or
 * `PUT /counterparties/{id}` as a contract writes it) apply to the calls it
 * stands for, whatever a label calls its parameter: a label of the
 * contract's operation (`PUT /counterparties/{counterpartyId}`), one that
 * route templates or the shape rules made (`:id`), or one before the end of
 * the run has learned it: whether a call failed is decided as it is
 * counted, and a template that learning finds (learnedTemplates.ts) is only
 * known at the end. A key with parameter segments matches a label segment by
 * segment (see keyNamesLabel): a literal segment as written, a parameter
 * one a parameter of the label or a value that learning would take for an
 * id, never a word (`/usuarios/me` keeps its own rule). Keys are tried in
 * the order they were written; undefined when no key is a template.
 */
export function expectedStatusesByTemplate(
  byEndpoint: ReadonlyMap<string, StatusSet>,
): ((endpoint: string) => StatusSet | undefined) | undefined {
  const templates = [...byEndpoint].filter(([key]) =>
    key
      .slice(key.indexOf(' ') + 1)
      .split('/')
      .some(isParameterSegment),
  );
  if (templates.length === 0) return undefined;
  return (endpoint) => templates.find(([key]) => keyNamesLabel(key, endpoint, { opaqueValues: true }))?.[1];
}
