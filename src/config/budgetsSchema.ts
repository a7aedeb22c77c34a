import * as z from 'zod';
import { endpointKeyedObject } from './endpointKeys.js';

/**
 * The budgets file (`QE_BUDGETS_PATH`, `--budgets`) and the reporter option
 * `budgets`: quality limits a report must hold. `src/evaluation/evaluateBudgets.ts`
 * judges a report against them.
 */

/** The statistics a `responseTimeMs` budget may limit. */
export const LIMITED_STATISTICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'max'] as const;

const count = (what: string) =>
  z
    .int({ error: 'must be a whole number, 0 or more' })
    .min(0, { error: 'must be a whole number, 0 or more' })
    .optional()
    .meta({ description: what });
const milliseconds = z
  .number({ error: 'must be a number of milliseconds, 0 or more' })
  .min(0, { error: 'must be a number of milliseconds, 0 or more' })
  .optional();

const limits = {
  minExecutions: count('At least this many executions: a run that recorded nothing cannot pass'),
  maxFailedExecutions: count('At most this many failed executions'),
  maxFailureRate: z
    .number({ error: 'must be a rate from 0 to 1' })
    .min(0, { error: 'must be a rate from 0 to 1' })
    .max(1, { error: 'must be a rate from 0 to 1' })
    .optional()
    .meta({ description: 'At most this share of executions failed, from 0 to 1' }),
  maxSlowExecutions: count('At most this many slow executions'),
  maxNoResponseCount: count('At most this many executions with no response'),
  responseTimeMs: z
    .strictObject(
      Object.fromEntries(LIMITED_STATISTICS.map((statistic) => [statistic, milliseconds])) as Record<
        (typeof LIMITED_STATISTICS)[number],
        typeof milliseconds
      >,
      {
        error: `must be an object of response-time limits (${LIMITED_STATISTICS.join(', ')})`,
      },
    )
    .optional()
    .meta({ description: 'Upper limits, in milliseconds, on response-time statistics (nearest-rank percentiles)' }),
  maxEndpointsAboveHistoricalRange: count(
    'At most this many endpoints whose p95 is above the range of their own history (trend aboveRange; needs a history ' +
      'file, historyPath); for one endpoint (under endpoints or operations), 0 means it must not be',
  ),
  maxP95IncreasePercent: z
    .number({ error: 'must be a percentage, 0 or more' })
    .min(0, { error: 'must be a percentage, 0 or more' })
    .optional()
    .meta({
      description:
        "At most this increase of each endpoint's p95 over the baseline, in percent. " +
        'Only an endpoint the baseline comparison judges slower (a real change, by its significance test) can breach it; ' +
        'every endpoint is listed with its latency verdict, those with too few samples to judge too',
    }),
};

const percentage = (what: string) =>
  z
    .number({ error: 'must be a percentage from 0 to 100' })
    .min(0, { error: 'must be a percentage from 0 to 100' })
    .max(100, { error: 'must be a percentage from 0 to 100' })
    .optional()
    .meta({ description: what });

/** Limits on how the calls cover the API's contract (an OpenAPI document: the openapi setting); without one they are breached. */
const contractLimits = {
  minOperationCoveragePercent: percentage("At least this share of the contract's operations called, in percent"),
  minResponseCoveragePercent: percentage(
    'At least this share of the pairs of an operation and a status it declares (default left out) seen, in percent',
  ),
  minConditionCoveragePercent: percentage(
    'At least this share of the conditions the operations declare (parameters, enum values, branches, optional properties, ' +
      'statuses, bounds) met, in percent; for one operation (under operations), of its own conditions, and one that declares none is breached',
  ),
  maxUndeclaredStatuses: count('At most this many statuses seen that an operation does not declare, counted once per operation and status'),
  maxUnmatchedEndpoints: count('At most this many endpoints whose calls match no operation of the contract'),
  maxSchemaViolations: count("At most this many bodies (responses and requests) that broke their operation's schema"),
  maxBreakingChanges: count('At most this many breaking changes between openapiBase and openapi (run-wide; needs openapiBase)'),
  maxBreakingChangesExercised: count(
    "At most this many breaking changes whose operation the run's calls reached (run-wide; needs openapiBase)",
  ),
};

/**
 * The limits of one operation: those of an endpoint, the statuses it may answer undeclared, the bodies that may break its
 * schemas, and how many of its conditions the run must meet.
 */
const operationBudgetsSchema = z
  .strictObject(
    {
      ...limits,
      maxUndeclaredStatuses: contractLimits.maxUndeclaredStatuses,
      maxSchemaViolations: contractLimits.maxSchemaViolations,
      minConditionCoveragePercent: contractLimits.minConditionCoveragePercent,
    },
    { error: 'must be an object of budgets' },
  )
  .meta({ title: 'OperationBudgets' });

/** The budgets of one endpoint. */
const endpointBudgetsSchema = z.strictObject(limits, { error: 'must be an object of budgets' }).meta({ title: 'EndpointBudgets' });

const operationBudgetsRecord = z.record(
  z.string().min(1, { error: 'must be an operationId or an endpoint label' }),
  operationBudgetsSchema,
);

// zod skips a "__proto__" key without a word (see endpointKeyedObject): refused, so that no budget holds unjudged.
function checkOperationKeys(value: unknown, context: z.RefinementCtx): unknown {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
    context.addIssue({ code: 'custom', message: 'must be an operationId or an endpoint label of the contract', path: ['__proto__'] });
  }
  return value;
}

// A key that is not a label ("__proto__" too) would be a budget that holds unjudged.
const endpointBudgetsRecord = endpointKeyedObject<typeof endpointBudgetsSchema, EndpointBudgetsInput>(endpointBudgetsSchema, 'budgets');

/** A budgets file (`QE_BUDGETS_PATH`, `--budgets`), or the reporter option `budgets`. */
export const budgetsSchema = z
  .strictObject(
    {
      $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors' }),
      countFlakyFailures: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .meta({
          description:
            'Whether failed executions from attempts that a retry made good (flaky) ' +
            'count in maxFailedExecutions and maxFailureRate, run-wide, per endpoint and per operation; ' +
            'default true. Only a Playwright run knows which failures are flaky',
        }),
      ...limits,
      ...contractLimits,
      endpoints: endpointBudgetsRecord.optional().meta({
        description:
          'Budgets per endpoint label (after route templates and grouping); a budget for an endpoint that did not run is breached',
      }),
      operations: z
        .preprocess<unknown, typeof operationBudgetsRecord, Readonly<Record<string, OperationBudgetsInput>>>(
          checkOperationKeys,
          operationBudgetsRecord,
        )
        .optional()
        .meta({
          description:
            'Budgets per operation of the contract, by its operationId or its endpoint label (GET /users/{id}); a key that names no operation is breached',
        }),
    },
    { error: 'must be a JSON object of budgets' },
  )
  .meta({ title: 'QualityEvidenceBudgets', description: 'Quality budgets: every key is optional; limits are inclusive' });

/**
 * The budgets a budgets file may name in the object at `path` (the file's
 * top, an endpoint's, an operation's): what a key it does not know was
 * probably meant to be is looked for among them. Empty elsewhere.
 */
export function budgetKeysAt(path: readonly PropertyKey[]): readonly string[] {
  if (path.length === 0) return Object.keys(budgetsSchema.shape);
  if (path.length === 2 && path[0] === 'endpoints') return Object.keys(endpointBudgetsSchema.shape);
  if (path.length === 2 && path[0] === 'operations') return Object.keys(operationBudgetsSchema.shape);
  return [];
}

export type Budgets = z.infer<typeof budgetsSchema>;

/** The budgets of one endpoint. */
export type EndpointBudgets = z.infer<typeof endpointBudgetsSchema>;

/** The budgets of one operation of the contract. */
export type OperationBudgets = z.infer<typeof operationBudgetsSchema>;

type EndpointBudgetsInput = z.input<typeof endpointBudgetsSchema>;
type OperationBudgetsInput = z.input<typeof operationBudgetsSchema>;
