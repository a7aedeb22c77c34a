import * as z from 'zod';
import { bucketRange } from '../summary/latencyHistogram.js';

/** The shapes of statistics the report repeats: per run, per endpoint, per operation. */

const statistic = (what: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${what}; null when there are no executions` });

/** The seven statistics of a set of times, in milliseconds. */
export const latencyStatisticsSchema = z
  .strictObject({
    min: statistic('The fastest'),
    mean: statistic('The mean, rounded to 3 decimals (the microsecond)'),
    p50: statistic(
      'The 50th percentile by nearest rank: the value at 1-based rank ceil(50 × n / 100) in ascending order, always a recorded value',
    ),
    p90: statistic('The 90th percentile by nearest rank (rank ceil(90 × n / 100))'),
    p95: statistic('The 95th percentile by nearest rank (rank ceil(95 × n / 100))'),
    p99: statistic('The 99th percentile by nearest rank (rank ceil(99 × n / 100))'),
    max: statistic('The slowest'),
    source: z
      .enum(['exact', 'histogram'])
      .optional()
      .meta({
        description:
          'exact: computed from every recorded time (a report made from records); histogram: ' +
          'the percentiles read from merged latency histograms (quality-evidence merge), ' +
          'each within relativeError of the exact value, while min, max and the mean stay exact. ' +
          'Absent in reports of versions before 0.2: exact',
      }),
    relativeError: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .meta({ description: 'Only with source histogram: the most a percentile may differ from the exact one, relatively: 0.01 (1%)' }),
  })
  .meta({
    title: 'LatencyStatistics',
    description: 'Statistics of times in milliseconds; every one is null when there are no executions, so no data never looks fast',
  });

export const statusCodesSchema = z.record(z.string().regex(/^[1-5]\d\d$/), z.int().min(1)).meta({
  description: 'Executions per status code (keys ascending), expected or not; calls with no response have no status and are not here',
});

/** One violation of a body's schema, counted over an endpoint's (or an operation's) calls. */
const countedViolationSchema = z
  .strictObject({
    body: z.enum(['response', 'request']),
    pointer: z
      .string()
      .meta({ description: 'Where in the body, a JSON pointer with array indices as * (/items/*/price); "" for the whole body' }),
    keyword: z.string().meta({
      description:
        'The schema keyword that failed (type, required, enum, format, additionalProperties, …); json when a JSON body did not parse',
    }),
    count: z.int().min(1).meta({ description: 'How many bodies named it (a record names its first 5 violations)' }),
  })
  .meta({ title: 'CountedViolation' });

/** The counts of body conformance, as an endpoint and an operation give them. */
export const bodyCountsShape = {
  validatedCount: z.int().min(0).meta({ description: 'Bodies (responses and requests) validated against their schema' }),
  schemaViolationCount: z.int().min(0).meta({ description: 'Validated bodies that broke their schema' }),
  notValidatedCount: z.int().min(0).meta({
    description:
      'Bodies not validated: no schema for their status and media type, not JSON, over the size limit, empty, or a schema that could not be compiled',
  }),
  topViolations: z
    .array(countedViolationSchema)
    .meta({ description: 'The most frequent violations, most frequent first, at most 10; never a value from a body' }),
};

/** An endpoint's body conformance (present only when its records carried body checks); its keys in the order bodyTally.ts gives them. */
export const bodyConformanceSchema = z
  .strictObject({
    validatedCount: bodyCountsShape.validatedCount,
    schemaViolationCount: bodyCountsShape.schemaViolationCount,
    notValidatedCount: bodyCountsShape.notValidatedCount,
    notValidatedReasons: z
      .strictObject({
        noSchema: z.int().min(1).optional(),
        notJson: z.int().min(1).optional(),
        tooLarge: z.int().min(1).optional(),
        emptyBody: z.int().min(1).optional(),
        schemaUnusable: z.int().min(1).optional(),
        tooDeep: z.int().min(1).optional(),
      })
      .meta({ description: 'Bodies not validated, by reason; only the reasons that occurred' }),
    topViolations: bodyCountsShape.topViolations,
  })
  .meta({ title: 'BodyConformance' });

/** An endpoint's latency histogram (src/summary/latencyHistogram.ts). */
export const latencyHistogramSchema = z
  .strictObject({
    relativeAccuracy: z
      .number()
      .gt(0)
      .lt(1)
      .meta({ description: 'The relative error of a percentile read from the histogram, at most: 0.01 (1%)' }),
    zeroCount: z.int().min(0).meta({ description: 'Times of exactly 0 ms' }),
    bins: z.array(z.tuple([z.int(), z.int().min(1)])).meta({
      description:
        'Only the buckets that hold a time, ascending: [index, count]. Bucket i holds the times in (γ^(i-1), γ^i] ms, ' +
        'γ = (1 + relativeAccuracy) / (1 - relativeAccuracy), and stands for 2γ^i / (γ + 1) ' +
        "(DDSketch's logarithmic mapping)",
    }),
  })
  .check((context) => {
    // A histogram's buckets are ascending and each holds some time: bins out of order would be read as other times.
    const { relativeAccuracy, bins } = context.value;
    const { lowest, highest } = bucketRange(relativeAccuracy);
    bins.forEach(([bucket], index) => {
      const problem =
        index > 0 && bucket <= bins[index - 1]![0]
          ? `bucket ${bucket} follows bucket ${bins[index - 1]![0]}: buckets must be strictly ascending`
          : bucket < lowest || bucket > highest
            ? `bucket ${bucket} holds no time: a histogram of relative accuracy ${relativeAccuracy} has buckets ${lowest} to ${highest}`
            : undefined;
      if (problem !== undefined) context.issues.push({ code: 'custom', message: problem, input: bins[index], path: ['bins', index, 0] });
    });
  })
  .meta({
    title: 'LatencyHistogram',
    description:
      'Every response time of the endpoint in logarithmic buckets: mergeable across runs and machines (counts add up), ' +
      'read by nearest rank for comparisons; the exact percentiles are in responseTimeMs',
  });

/** One status's executions of an endpoint, or, for calls with no response, one error code's. */
export const statusLatencySchema = z
  .strictObject({
    statusCode: z.int().min(100).max(599).optional().meta({ description: 'The status code; absent for calls with no response' }),
    errorCode: z.string().optional().meta({ description: 'Only for calls that got no response: their error code' }),
    executionCount: z.int().min(1),
    totalMs: z
      .number()
      .min(0)
      .meta({ description: 'The sum of their response times in milliseconds, rounded to 3 decimals (the microsecond)' }),
    latencyHistogram: latencyHistogramSchema,
  })
  .meta({ title: 'StatusLatency' });
