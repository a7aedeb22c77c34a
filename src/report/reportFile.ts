import * as z from 'zod';
import { quoteText } from '../renderValue.js';
import { endpointStatisticsSchema, qualityReportSchema, type QualityReport } from './qualityReport.js';
import { REPORT_SCHEMA_VERSION } from './buildReport.js';
import { latencyHistogramSchema, statusLatencySchema } from './statisticsSchemas.js';

/**
 * `quality-summary.json` as its file holds it, beside the report in memory
 * (qualityReport.ts). The file leaves out what a reader derives exactly: the
 * histogram of an endpoint's sole status, which is the endpoint's own
 * (the statuses' histograms add up to the endpoint's, reportConsistency.ts):
 * about a fifth of a report whose endpoints each answer one status. The
 * writer (renderers/json.ts) leaves it out, every reader restores it
 * (parseReport), and the report in memory always has it.
 */

/**
 * The report versions this version reads: its own, and 1, where an
 * endpoint's sole status repeats the endpoint's histogram. Each reads into
 * a report of this version.
 */
export const READ_REPORT_SCHEMA_VERSIONS = [1, REPORT_SCHEMA_VERSION] as const;

type StatusLatency = NonNullable<QualityReport['endpoints'][number]['latencyByStatus']>[number];
type LatencyHistogram = StatusLatency['latencyHistogram'];

const SOLE_STATUS_HISTOGRAM =
  "Absent when this is the endpoint's only entry (schemaVersion 2; version 1 repeats it): " +
  "it is then the endpoint's latencyHistogram, which a reader restores here. Every entry of an endpoint with several has its own";

/** One status's executions as the file holds them: an endpoint's sole status without its histogram. */
const statusLatencyFileSchema = statusLatencySchema
  .extend({ latencyHistogram: latencyHistogramSchema.optional().meta({ description: SOLE_STATUS_HISTOGRAM }) })
  .meta({ title: 'StatusLatency' });

/** An endpoint's times by status as the file holds them (the JSON Schema adds the rule: several entries each have their histogram). */
export const latencyByStatusFileSchema = z.array(statusLatencyFileSchema);

/** What the rule of a sole status's histogram reads of an endpoint. */
interface EndpointAsWritten {
  readonly endpoint: string;
  readonly latencyHistogram?: LatencyHistogram | undefined;
  readonly latencyByStatus?: readonly { readonly latencyHistogram?: LatencyHistogram | undefined }[] | undefined;
}

/**
 * Where an endpoint's statuses break the rule of their histograms, or
 * undefined: of several, each has its own; a sole one without takes the
 * endpoint's, which must then be there (an endpoint's own is optional only
 * in a baseline of an early version).
 */
export function statusHistogramProblem(entry: EndpointAsWritten): { readonly path: PropertyKey[]; readonly message: string } | undefined {
  const statuses = entry.latencyByStatus ?? [];
  const missing = statuses.findIndex(({ latencyHistogram }) => latencyHistogram === undefined);
  if (missing === -1) return undefined;
  const path = ['latencyByStatus', missing, 'latencyHistogram'];
  const endpoint = quoteText(entry.endpoint);
  if (statuses.length > 1) {
    return {
      path,
      message: `is missing: the endpoint ${endpoint} has ${statuses.length} statuses, and only a sole status leaves its histogram out (it is the endpoint's)`,
    };
  }
  if (entry.latencyHistogram === undefined) {
    return { path, message: `is missing, and so is the latencyHistogram of the endpoint ${endpoint}, which its sole status would take` };
  }
  return undefined;
}

/** The zod check of {@link statusHistogramProblem}'s rule, for every schema of an endpoint as a file holds it. */
export function checkStatusHistograms(context: z.core.ParsePayload<EndpointAsWritten>): void {
  const problem = statusHistogramProblem(context.value);
  if (problem !== undefined) context.issues.push({ code: 'custom', input: context.value, ...problem });
}

/** An endpoint as the file holds it, held to {@link statusHistogramProblem}'s rule. */
export const endpointStatisticsFileSchema = endpointStatisticsSchema
  .extend({
    latencyByStatus: latencyByStatusFileSchema.optional().meta({
      description: `${endpointStatisticsSchema.shape.latencyByStatus.description ?? ''}. An endpoint's only entry leaves out its histogram (the endpoint's)`,
    }),
  })
  .check(checkStatusHistograms)
  .meta({ title: 'EndpointStatistics' });

/** `quality-summary.json` as the file holds it: the schema published as `schemas/report.schema.json`. */
export const qualityReportFileSchema = qualityReportSchema
  .extend({
    endpoints: z.array(endpointStatisticsFileSchema).meta({ description: qualityReportSchema.shape.endpoints.description }),
  })
  .meta({ title: 'QualityReport' });

/** A status's executions as a file holds them: its histogram may be left out. */
type StatusLatencyAsWritten = Omit<StatusLatency, 'latencyHistogram'> & { readonly latencyHistogram?: LatencyHistogram | undefined };

/** An endpoint read from a file, as in memory: every status with its histogram. */
export type EndpointOfFile<Entry> = Omit<Entry, 'latencyByStatus'> & { latencyByStatus?: StatusLatency[] };

/**
 * An endpoint's times by status read from a file (held to
 * {@link statusHistogramProblem}'s rule), as in memory: a sole status
 * without its histogram takes the endpoint's. Each status's keys keep their
 * order (the histogram is the last).
 */
export function statusesOfFile(
  latencyByStatus: readonly StatusLatencyAsWritten[],
  endpointHistogram: LatencyHistogram | undefined,
): StatusLatency[] {
  return latencyByStatus.map(({ latencyHistogram, ...status }) => ({
    ...status,
    latencyHistogram: latencyHistogram ?? endpointHistogram!,
  }));
}

/**
 * An endpoint read from a file (held to {@link statusHistogramProblem}'s
 * rule), as in memory: its statuses by {@link statusesOfFile}; one without
 * statuses (a report of a version before 0.2) as it is.
 */
export function endpointOfFile<
  Entry extends {
    readonly latencyHistogram?: LatencyHistogram | undefined;
    readonly latencyByStatus?: readonly StatusLatencyAsWritten[] | undefined;
  },
>(entry: Entry): EndpointOfFile<Entry> {
  if (entry.latencyByStatus === undefined) {
    const { latencyByStatus: _none, ...rest } = entry;
    return rest;
  }
  return { ...entry, latencyByStatus: statusesOfFile(entry.latencyByStatus, entry.latencyHistogram) };
}
