import type { LabelRules } from '../labels/endpointLabels.js';
import type { StatusListInput } from '../records/statusList.js';

/**
 * The rules a run summarises by, as plain data (they cross to worker
 * threads): the slow threshold, the expected statuses, and how endpoint
 * labels are made readable. Lists and templates must have been checked (the
 * settings resolver does).
 */
export interface EvidenceRules extends LabelRules {
  /** Executions strictly slower than this many milliseconds are slow. */
  readonly slowResponseThresholdMs: number;
  /** Run-wide expected statuses; default `100-399` (failed means 400 or above). */
  readonly expectedStatuses?: StatusListInput | undefined;
  /** Per endpoint label (after templating): overrides the run-wide rule. */
  readonly expectedStatusesByEndpoint?: Readonly<Record<string, StatusListInput>> | undefined;
  /** Whether the report keeps the trace ids records carry (the traceContext setting); default true, false keeps none. */
  readonly traceContext?: boolean | undefined;
}
