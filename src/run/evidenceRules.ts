import type { LabelRules } from '../labels/endpointLabels.js';
import { DEFAULT_OTLP_SPAN_LIMIT } from '../config/settings.js';
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
  /** The most traced calls the run keeps for the otlp export's spans (see spanSample.ts); 0 or absent: none, at no cost. */
  readonly spanLimit?: number | undefined;
}

/**
 * The traced calls a run keeps for spans: `otlpSpanLimit`, only when the
 * otlp export is asked for and `traceContext` is on; otherwise 0 (none).
 */
export function spanLimitOf({
  exports,
  traceContext,
  otlpSpanLimit,
}: {
  readonly exports?: { readonly otlp?: string | undefined } | undefined;
  readonly traceContext?: boolean | undefined;
  readonly otlpSpanLimit?: number | undefined;
}): number {
  return exports?.otlp === undefined || traceContext === false ? 0 : (otlpSpanLimit ?? DEFAULT_OTLP_SPAN_LIMIT);
}
