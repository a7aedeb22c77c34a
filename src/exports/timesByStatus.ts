import { ExportError } from '../errors.js';
import type { QualityReport } from '../report/qualityReport.js';

type Endpoint = QualityReport['endpoints'][number];

/** One status's (or error code's) times of an endpoint, as the report gives them. */
export type TimesByStatus = NonNullable<Endpoint['latencyByStatus']>[number];

/**
 * An endpoint's times by status, which the OpenTelemetry and Prometheus
 * exports are made of; an ExportError (65) for a report that lacks them (of
 * a version before 0.2, or merged with one).
 */
export function timesByStatusOf(entry: Endpoint, kind: string): readonly TimesByStatus[] {
  if (entry.latencyByStatus === undefined) {
    throw new ExportError(
      kind,
      'the report has no times by status (latencyByStatus: a report of a version before 0.2, or merged with one): ' +
        'summarise its records again with this version',
    );
  }
  return entry.latencyByStatus;
}
