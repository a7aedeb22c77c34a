import { z } from 'zod';

/** The shapes of statistics the report repeats: per run, per endpoint, per operation. */

const statistic = (what: string) => z.number().nullable().meta({ description: `${what}; null when there are no executions` });

/** The seven statistics of a set of times, in milliseconds. */
export const latencyStatisticsSchema = z
  .strictObject({
    min: statistic('The fastest'),
    mean: statistic('The mean, rounded to 3 decimals (the microsecond)'),
    p50: statistic('The 50th percentile by nearest rank: the value at 1-based rank ceil(50 × n / 100) in ascending order, always a recorded value'),
    p90: statistic('The 90th percentile by nearest rank (rank ceil(90 × n / 100))'),
    p95: statistic('The 95th percentile by nearest rank (rank ceil(95 × n / 100))'),
    p99: statistic('The 99th percentile by nearest rank (rank ceil(99 × n / 100))'),
    max: statistic('The slowest'),
  })
  .meta({ title: 'LatencyStatistics', description: 'Statistics of times in milliseconds; every one is null when there are no executions, so no data never looks fast' });

export const statusCodesSchema = z
  .record(z.string().regex(/^[1-5]\d\d$/), z.int().min(1))
  .meta({ description: 'Executions per status code (keys ascending), expected or not; calls with no response have no status and are not here' });

