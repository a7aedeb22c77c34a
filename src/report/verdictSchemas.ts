import { z } from 'zod';

/**
 * The report's judgement sections: the budgets' verdict and the comparison
 * with a baseline report. `src/evaluation` computes them; their shapes live
 * here, with the rest of the report's.
 */

/** One budget, judged. */
const budgetResultSchema = z
  .strictObject({
    budget: z.string().meta({
      description:
        'The budget key: minExecutions, maxFailedExecutions, maxFailureRate, maxSlowExecutions, maxNoResponseCount, responseTimeMs.p95 (…), maxP95IncreasePercent, minOperationCoveragePercent, minResponseCoveragePercent, maxUndeclaredStatuses, maxUnmatchedEndpoints, maxSchemaViolations',
    }),
    endpoint: z.string().optional().meta({ description: 'The endpoint it applies to; absent for a budget of the whole run' }),
    operation: z
      .string()
      .optional()
      .meta({ description: "Only for a budget of one operation of the contract: the operationId or label the budgets name it by (endpoint is then the operation's label, absent when no operation has that name)" }),
    limit: z.number().meta({ description: 'The limit, inclusive: a measured value equal to it holds' }),
    actual: z.number().nullable().meta({ description: 'The measured value; null when there is none (no executions, or an endpoint that did not run), which breaches the budget' }),
    passed: z.boolean(),
  })
  .meta({ title: 'BudgetResult' });

/** The verdict of the budgets over one report. */
export const budgetVerdictSchema = z
  .strictObject({
    passed: z.boolean().meta({ description: 'Whether every budget holds' }),
    results: z.array(budgetResultSchema).meta({ description: 'Every budget, in a fixed order: the whole run first, then endpoints by label' }),
  })
  .meta({ title: 'BudgetVerdict' });

const countPair = z.strictObject({ before: z.int().min(0).nullable(), after: z.int().min(0).nullable() });

/** The comparison of a report with a baseline report (for example main's). */
export const baselineComparisonSchema = z
  .strictObject({
    environment: z.strictObject({ before: z.string(), after: z.string() }),
    executionCount: countPair,
    failedExecutionCount: countPair,
    slowExecutionCount: countPair,
    endpoints: z
      .array(
        z.strictObject({
          endpoint: z.string(),
          executionCount: countPair.meta({ description: 'before is null for an endpoint the baseline does not have' }),
          p95: z.strictObject({
            before: z.number().nullable(),
            after: z.number().nullable(),
            changePercent: z.number().nullable().meta({ description: '(after - before) / before × 100, rounded to 2 decimals; null when either is missing or before is 0 and after is not' }),
          }),
          failedExecutionCount: countPair,
        }),
      )
      .meta({ description: 'Each endpoint of this report, by label' }),
    newlyFailingEndpoints: z.array(z.string()).meta({ description: 'Endpoints with failed executions now and none in the baseline (including endpoints the baseline does not have)' }),
    recoveredEndpoints: z.array(z.string()).meta({ description: 'Endpoints with failed executions in the baseline and none now' }),
    newlySlowEndpoints: z.array(z.string()).meta({ description: 'Endpoints with slow executions now and none in the baseline' }),
    newEndpoints: z.array(z.string()).meta({ description: 'Endpoints that ran now and not in the baseline' }),
    missingEndpoints: z.array(z.string()).meta({ description: 'Endpoints that ran in the baseline and not now' }),
  })
  .meta({ title: 'BaselineComparison' });

export type BudgetResult = z.infer<typeof budgetResultSchema>;
export type BudgetVerdict = z.infer<typeof budgetVerdictSchema>;
export type BaselineComparison = z.infer<typeof baselineComparisonSchema>;
