import type { Budgets } from '../config/budgetsSchema.js';
import { keyNamesLabel } from '../config/endpointKeyMatch.js';
import type { QualityReport } from '../report/qualityReport.js';
import { quotePath, quoteText } from '../renderValue.js';
import { labelsNamedBy } from './evaluateBudgets.js';

/** What the settings name endpoints by: expected statuses per endpoint, and budgets per endpoint. */
export interface EndpointKeys {
  readonly expectedStatusesByEndpoint?: Readonly<Record<string, unknown>> | undefined;
  readonly budgets?: Budgets | undefined;
  /** Where the budgets came from, when a file: messages name it. */
  readonly budgetsPath?: string | undefined;
}

const HOW_KEYS_MATCH = 'a key is an endpoint label as the report writes it, where a :name or {name} segment stands for any parameter';

/**
 * A warning for each key of `expectedStatusesByEndpoint` and of the budgets'
 * `endpoints` that names no endpoint of the run, naming the key: statuses
 * that applied to no call, limits measured on nothing, most often a label
 * written another way than the report's (`PUT /counterparties/:id` names
 * the contract's `PUT /counterparties/{id}`, so that one does match).
 * None for a run that recorded no executions (its verdict says so already),
 * nor for a report too old to list its endpoints.
 */
export function unmatchedEndpointKeyWarnings(report: QualityReport, keys: EndpointKeys): string[] {
  // A report read back may be older than the per-endpoint statistics (check): with no endpoints listed, nothing can be matched.
  const labels = ((report as Partial<QualityReport>).endpoints ?? []).map(({ endpoint }) => endpoint);
  if (labels.length === 0) return [];
  const warnings: string[] = [];
  for (const key of Object.keys(keys.expectedStatusesByEndpoint ?? {})) {
    if (labels.some((label) => keyNamesLabel(key, label, { opaqueValues: true }))) continue;
    warnings.push(
      `expectedStatusesByEndpoint names ${quoteText(key)}, which matches no endpoint of this run: its statuses applied to no call (${HOW_KEYS_MATCH})`,
    );
  }
  const budgeted = Object.keys(keys.budgets?.endpoints ?? {});
  if (budgeted.length > 0) {
    const known = new Set(labels);
    const labelOf = labelsNamedBy(labels);
    const where = keys.budgetsPath === undefined ? 'the budgets name' : `the budgets file ${quotePath(keys.budgetsPath)} names`;
    for (const key of budgeted) {
      if (known.has(labelOf(key))) continue;
      warnings.push(
        `${where} the endpoint ${quoteText(key)}, which matches no endpoint of this run: its limits measure nothing and breach (${HOW_KEYS_MATCH})`,
      );
    }
  }
  return warnings;
}
