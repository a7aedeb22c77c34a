import * as z from 'zod';
import { unmetConditionSchema } from './contractSchemas.js';
import { runIdentitySchema } from './historySchemas.js';
import { NEW_STATUS_LIMIT, CONTRACT_CHANGE_LIMIT, CONDITION_CHANGE_LIMIT } from './reportLimits.js';

export { NEW_STATUS_LIMIT, CONTRACT_CHANGE_LIMIT, CONDITION_CHANGE_LIMIT } from './reportLimits.js';

/**
 * The report's judgement sections: the budgets' verdict and the comparison
 * with a baseline report. `src/evaluation` computes them; their shapes live
 * here, with the rest of the report's.
 */

/** What the baseline comparison says of an endpoint's latency (src/evaluation/latencyChange.ts). */
export const LATENCY_VERDICTS = ['slower', 'faster', 'noChange', 'tooFewSamples'] as const;

export type LatencyVerdict = (typeof LATENCY_VERDICTS)[number];

const latencyVerdictSchema = z.enum(LATENCY_VERDICTS).meta({
  description:
    'slower or faster: the change is real (the latency test rejects "no change" at the significance level); noChange: ' +
    'it is not; tooFewSamples: no outcome of so few samples could be judged real',
});

/** One budget, judged. */
const budgetResultSchema = z
  .strictObject({
    budget: z.string().meta({
      description:
        'The budget key: minExecutions, maxFailedExecutions, maxFailureRate, maxSlowExecutions, maxNoResponseCount, ' +
        'responseTimeMs.p95 (…), maxP95IncreasePercent, minOperationCoveragePercent, minResponseCoveragePercent, ' +
        'minConditionCoveragePercent, maxUndeclaredStatuses, maxUnmatchedEndpoints, maxSchemaViolations, ' +
        'maxBreakingChanges, maxBreakingChangesExercised',
    }),
    endpoint: z.string().optional().meta({ description: 'The endpoint it applies to; absent for a budget of the whole run' }),
    operation: z
      .string()
      .optional()
      .meta({
        description:
          'Only for a budget of one operation of the contract: the operationId or label the budgets name it by ' +
          "(endpoint is then the operation's label, absent when no operation has that name)",
      }),
    limit: z.number().meta({ description: 'The limit, inclusive: a measured value equal to it holds' }),
    actual: z.number().nullable().meta({
      description:
        'The measured value; null when there is none (no executions, or an endpoint that did not run), which breaches the budget',
    }),
    passed: z.boolean(),
    latencyVerdict: latencyVerdictSchema.optional().meta({
      description:
        "Only for maxP95IncreasePercent: the baseline comparison's verdict on the endpoint's latency. " +
        'Only a slower endpoint can breach it; one with too few samples to judge is listed, and holds',
    }),
  })
  .meta({ title: 'BudgetResult' });

/** The verdict of the budgets over one report. */
export const budgetVerdictSchema = z
  .strictObject({
    passed: z.boolean().meta({ description: 'Whether every budget holds' }),
    countFlakyFailures: z
      .literal(false)
      .optional()
      .meta({
        description:
          'Only when the budgets say so (countFlakyFailures: false): failed executions that a retry made good are not ' +
          'counted in maxFailedExecutions and maxFailureRate',
      }),
    results: z
      .array(budgetResultSchema)
      .meta({ description: 'Every budget, in a fixed order: the whole run first, then endpoints by label' }),
  })
  .meta({ title: 'BudgetVerdict' });

const countPair = z.strictObject({ before: z.int().min(0).nullable(), after: z.int().min(0).nullable() });

/** How an endpoint's flakiness changed against the baseline (src/evaluation/baseline.ts). */
export const FLAKINESS_CHANGES = ['newlyFlaky', 'noLongerFlaky', 'stillFlaky'] as const;

export type FlakinessChange = (typeof FLAKINESS_CHANGES)[number];

const percentPair = (of: string) =>
  z
    .strictObject({ before: z.number().min(0).max(100).nullable(), after: z.number().min(0).max(100).nullable() })
    .meta({ description: `The contract section's ${of} of the baseline and of this report (null when there was nothing to cover)` });

const operationName = z
  .string()
  .meta({ description: "The operation's endpoint label, as the contract section's operations give it (`endpoint`: GET /users/{id})" });

const conditionChange = (then: string) =>
  z
    .strictObject({
      operation: operationName,
      condition: unmetConditionSchema.meta({
        description: `As the contract section lists an unmet condition; a bound says how far the run ${then} went`,
      }),
    })
    .meta({ title: 'ConditionChange' });

const whenConditionsCompared =
  'Only when the comparison had the document (a run with openapi, compare with --openapi) and the baseline counted conditions: ';

/**
 * What the run did to the API's contract against the baseline: coverage
 * before and after, operations that started or stopped being called,
 * statuses newly undeclared, bodies off their schema where their count
 * moved, and conditions newly met and no longer met. Operations are this
 * report's contract's, by endpoint label.
 */
const contractComparisonSchema = z
  .strictObject({
    operationCoveragePercent: percentPair('operationCoveragePercent'),
    responseCoveragePercent: percentPair('responseCoveragePercent'),
    conditionCoveragePercent: percentPair('conditionCoveragePercent')
      .optional()
      .meta({
        description:
          "The contract section's conditionCoveragePercent of the baseline and of this report; before is null for a baseline " +
          'of a version that counted no conditions, and either is null when there was nothing to cover. ' +
          'Absent in reports of versions before condition coverage',
      }),
    newlyExercisedOperations: z
      .array(operationName)
      .max(CONTRACT_CHANGE_LIMIT)
      .meta({
        description:
          `Operations of this report's contract called now and never in the baseline (operations the baseline's contract ` +
          `lacks included), in the document's order; at most ${CONTRACT_CHANGE_LIMIT}`,
      }),
    newlyExercisedOperationCount: z.int().min(0).meta({ description: 'All of them, listed or not' }),
    noLongerExercisedOperations: z
      .array(operationName)
      .max(CONTRACT_CHANGE_LIMIT)
      .meta({
        description: `Operations of this report's contract called in the baseline and never now, in the document's order; at most ${CONTRACT_CHANGE_LIMIT}`,
      }),
    noLongerExercisedOperationCount: z.int().min(0).meta({ description: 'All of them, listed or not' }),
    newUndeclaredStatuses: z
      .array(z.strictObject({ operation: operationName, status: z.string().regex(/^[1-5]\d\d$/) }))
      .max(CONTRACT_CHANGE_LIMIT)
      .meta({
        description:
          `Statuses an operation's calls got that its document does not declare, now and not in the baseline, in the ` +
          `document's order, statuses ascending; at most ${CONTRACT_CHANGE_LIMIT}`,
      }),
    newUndeclaredStatusCount: z.int().min(0).meta({ description: 'All of them, listed or not' }),
    schemaViolationChanges: z
      .array(
        z.strictObject({
          operation: operationName,
          schemaViolationCount: countPair.meta({
            description: "Bodies off their schema in the baseline and now; before is null for an operation the baseline's contract lacks",
          }),
        }),
      )
      .max(CONTRACT_CHANGE_LIMIT)
      .meta({
        description: `Operations whose bodies off their schema changed in number, the largest increase first, decreases last; at most ${CONTRACT_CHANGE_LIMIT}`,
      }),
    schemaViolationChangeCount: z.int().min(0).meta({ description: 'All of them, listed or not' }),
    newlyMetConditions: z
      .array(conditionChange('that did not meet it (the baseline)'))
      .max(CONDITION_CHANGE_LIMIT)
      .optional()
      .meta({
        description:
          whenConditionsCompared +
          `conditions met now and not in the baseline, operations in the contract's order, each operation's in document order; ` +
          `at most ${CONDITION_CHANGE_LIMIT}. An operation the baseline did not call met none there`,
      }),
    newlyMetConditionCount: z.int().min(0).optional().meta({ description: 'With newlyMetConditions: all of them, listed or not' }),
    noLongerMetConditions: z
      .array(conditionChange('that did not meet it (this one)'))
      .max(CONDITION_CHANGE_LIMIT)
      .optional()
      .meta({
        description:
          whenConditionsCompared + `conditions met in the baseline and not now, in the same order; at most ${CONDITION_CHANGE_LIMIT}`,
      }),
    noLongerMetConditionCount: z.int().min(0).optional().meta({ description: 'With noLongerMetConditions: all of them, listed or not' }),
    conditionListChangedOperations: z
      .array(operationName)
      .max(CONTRACT_CHANGE_LIMIT)
      .optional()
      .meta({
        description:
          whenConditionsCompared +
          'operations the baseline called whose conditions it counted in another list (the document changed them: another fingerprint): ' +
          `their conditions are not compared; in the contract's order, at most ${CONTRACT_CHANGE_LIMIT}`,
      }),
    conditionListChangedOperationCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'With conditionListChangedOperations: all of them, listed or not' }),
  })
  .meta({ title: 'ContractComparison' });

/** The comparison of a report with a baseline report (for example main's). */
export const baselineComparisonSchema = z
  .strictObject({
    environment: z.strictObject({ before: z.string(), after: z.string() }),
    run: runIdentitySchema
      .optional()
      .meta({ description: 'Only when the baseline was taken from the history file (baselineFromHistory): which run it was' }),
    executionCount: countPair,
    failedExecutionCount: countPair,
    serverErrorCount: countPair.optional().meta({
      description:
        'Failed executions answered 5xx or not at all, as serverErrorCount counts them; before is null for a baseline of a version before 0.2. ' +
        'Absent in reports of versions before 0.2',
    }),
    slowExecutionCount: countPair,
    endpoints: z
      .array(
        z.strictObject({
          endpoint: z.string(),
          executionCount: countPair.meta({ description: 'before is null for an endpoint the baseline does not have' }),
          p95: z.strictObject({
            before: z.number().nullable(),
            after: z.number().nullable(),
            changePercent: z.number().nullable().meta({
              description:
                '(after - before) / before × 100, rounded to 2 decimals; null when either is missing or before is 0 and after is not',
            }),
          }),
          failedExecutionCount: countPair,
          failureRate: z.strictObject({ before: z.number().min(0).max(1).nullable(), after: z.number().min(0).max(1).nullable() }).meta({
            description:
              'Failed executions per execution, before and after (a retried attempt counts its calls again, ' +
              'so a retry does not read as failing more); null for a side without executions',
          }),
          latencyVerdict: latencyVerdictSchema,
          latencyTest: z
            .strictObject({
              method: z.literal('mannWhitneyU').meta({
                description:
                  "A two-sided Mann-Whitney U test over the two latency histograms, each direction against the baseline moved by the histogram's resolution",
              }),
              significanceLevel: z
                .number()
                .meta({ description: 'A change is real when pValue is below this (the significanceLevel setting; default 0.01)' }),
              nBefore: z.int().min(0).meta({ description: "Times in the baseline's histogram" }),
              nAfter: z.int().min(0).meta({ description: "Times in this run's histogram" }),
              p50ChangePercent: z
                .number()
                .nullable()
                .meta({ description: 'The change of the exact p50, in percent, as p95.changePercent is computed' }),
              p95ChangePercent: z.number().nullable().meta({ description: 'The change of the exact p95, in percent (p95.changePercent)' }),
              pValue: z.number().min(0).max(1).nullable().meta({
                description:
                  'The p-value, to 4 significant digits; null when there were too few samples to test (or no histogram in the baseline)',
              }),
              runShiftPercent: z.number().meta({
                description:
                  "The whole run's shift the baseline was moved by before the test (runShiftPercent of the comparison); 0 when none was taken out",
              }),
            })
            .meta({ description: 'The numbers the latency verdict was decided by' }),
          newStatuses: z
            .array(z.string().regex(/^[1-5]\d\d$/))
            .max(NEW_STATUS_LIMIT)
            .optional()
            .meta({
              description:
                `Only when the baseline is a report that ran this endpoint: status codes its calls got now and never in the ` +
                `baseline, ascending; at most ${NEW_STATUS_LIMIT}`,
            }),
          newStatusCount: z.int().min(0).optional().meta({ description: 'Only with newStatuses: all of them, listed or not' }),
          flakiness: z
            .enum(FLAKINESS_CHANGES)
            .optional()
            .meta({
              description:
                'Only when both reports say which endpoints are flaky (reports of the Playwright reporter) and this one is ' +
                'flaky in either: newlyFlaky (now, not in the baseline, which may not have run it), noLongerFlaky (in the ' +
                'baseline, not now), stillFlaky (in both)',
            }),
        }),
      )
      .meta({ description: 'Each endpoint of this report, by label' }),
    significanceLevel: z.number().gt(0).lt(1).meta({ description: 'The level the latency verdicts were judged at' }),
    runShiftPercent: z.number().meta({
      description:
        'The shift every endpoint of this run shares against the baseline (the median change of the p50s, ' +
        'over the endpoints with enough samples in both runs; at least 5 of them, else 0), in 2% steps: ' +
        'taken out before each endpoint is judged, so that a machine that is faster or slower as a whole marks no ' +
        'endpoint, and reported here on its own',
    }),
    latencyVerdictCounts: z
      .strictObject({ slower: z.int().min(0), faster: z.int().min(0), noChange: z.int().min(0), tooFewSamples: z.int().min(0) })
      .meta({ description: 'The endpoints of this report by latency verdict' }),
    slowerEndpoints: z
      .array(z.string())
      .meta({ description: 'Endpoints whose latency verdict is slower: with the newly failing ones, the regressions' }),
    newlyFailingEndpoints: z.array(z.string()).meta({
      description: 'Endpoints with failed executions now and none in the baseline (including endpoints the baseline does not have)',
    }),
    recoveredEndpoints: z.array(z.string()).meta({ description: 'Endpoints with failed executions in the baseline and none now' }),
    newlySlowEndpoints: z.array(z.string()).meta({ description: 'Endpoints with slow executions now and none in the baseline' }),
    newEndpoints: z.array(z.string()).meta({ description: 'Endpoints that ran now and not in the baseline' }),
    missingEndpoints: z.array(z.string()).meta({ description: 'Endpoints that ran in the baseline and not now' }),
    contract: contractComparisonSchema
      .optional()
      .meta({ description: 'Only when both reports have a contract section: what the run did to the contract against the baseline' }),
    flakinessAcrossRuns: z
      .strictObject({
        baseScored: z.boolean().meta({
          description:
            'Whether the baseline scored flakiness across runs (history.flakiness): when false, every endpoint and test flaky ' +
            'now is listed, and the comment says flaky, not newly flaky',
        }),
        newlyFlakyEndpoints: z.array(z.string()).meta({
          description:
            "Endpoints whose flakiness across runs is flaky now and was not in the baseline's (steady there, or absent; " +
            'failing there is not newly flaky), in code-unit order',
        }),
        newlyFlakyTests: z
          .array(z.strictObject({ file: z.string().min(1), line: z.int().min(1), title: z.string().min(1) }))
          .optional()
          .meta({
            description:
              "Only when both reports scored every run's tests (history.flakiness.testsScored) and the baseline listed all its " +
              'flaky tests: the tests this report lists as flaky that the baseline did not, by file, line and title',
          }),
      })
      .optional()
      .meta({
        description:
          'Only when this report scored its flakiness across runs (history.flakiness): what became flaky since the baseline ' +
          '(docs/pull-request-comment.md)',
      }),
  })
  .meta({ title: 'BaselineComparison' });

export type BudgetResult = z.infer<typeof budgetResultSchema>;
export type BudgetVerdict = z.infer<typeof budgetVerdictSchema>;
export type BaselineComparison = z.infer<typeof baselineComparisonSchema>;
export type ContractComparison = z.infer<typeof contractComparisonSchema>;
export type ConditionChange = NonNullable<ContractComparison['newlyMetConditions']>[number];
