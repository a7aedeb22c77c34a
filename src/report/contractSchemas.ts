import * as z from 'zod';
import { CHANGE_LEVELS } from '../contract/diff/contractChange.js';
import { CHANGE_RULES, type ChangeRule } from '../contract/diff/changeRules.js';
import { bodyCountsShape, latencyStatisticsSchema } from './statisticsSchemas.js';
import { MAX_LISTED_CONTRACT_CHANGES, MAX_LISTED_UNMET_CONDITIONS } from './reportLimits.js';

export { MAX_LISTED_CONTRACT_CHANGES, MAX_LISTED_UNMET_CONDITIONS } from './reportLimits.js';

/**
 * The report's `contract` section: how the run's calls cover the API's
 * OpenAPI document. `src/evaluation/contractCoverage.ts` computes it; its
 * shape lives here, with the rest of the report's.
 */

const statusKey = z.string().meta({ description: 'A status as the document declares it: a code (`200`), a range (`2XX`) or `default`' });
const statusCode = z.string().regex(/^[1-5]\d\d$/);
const percent = (of: string) =>
  z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .meta({ description: `${of}, rounded to 2 decimals; null when there is nothing to cover` });

const CONDITION_KINDS = ['parameter', 'enumValue', 'branch', 'optionalProperty', 'status', 'bound'] as const;
const where = z
  .string()
  .meta({ description: "A JSON pointer into the operation's document, as a URI fragment: #/paths/~1users/get/parameters/0" });
const direction = z.enum(['request', 'response']).meta({ description: 'Sent by the suite, or answered by the server' });
const responseStatus = z.string().optional().meta({ description: 'A response body’s: the status key of the response that declares it' });
const parameterName = z.strictObject({ name: z.string(), in: z.enum(['path', 'query', 'header', 'cookie', 'formData']) });

/** One condition an operation declares that the run did not meet (docs/contract.md, "Conditions a document declares"). */
export const unmetConditionSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('parameter'),
      where,
      name: z.string(),
      in: z.enum(['path', 'query', 'header', 'cookie', 'formData']),
      required: z.boolean(),
      case: z.enum(['sent', 'omitted']).meta({ description: 'Sent at least once, or (one not required) left out at least once' }),
    }),
    z.strictObject({
      kind: z.literal('enumValue'),
      where,
      value: z.unknown().meta({ description: 'The value as the document declares it (an enum item or a const)' }),
      direction,
      status: responseStatus,
      parameter: parameterName.optional().meta({ description: 'A parameter’s value: which parameter' }),
    }),
    z.strictObject({ kind: z.literal('branch'), where, keyword: z.enum(['oneOf', 'anyOf']), direction, status: responseStatus }),
    z.strictObject({ kind: z.literal('optionalProperty'), where, name: z.string(), direction, status: responseStatus }),
    z.strictObject({ kind: z.literal('status'), where, status: statusKey }),
    z.strictObject({
      kind: z.literal('bound'),
      where,
      keyword: z.enum(['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']),
      value: z.number(),
      parameter: parameterName.optional().meta({ description: 'A parameter’s bound: which parameter; absent for the request body’s' }),
      reached: z.boolean().meta({ description: 'Whether some value reached the bound exactly' }),
      outside: z.boolean().meta({ description: 'Whether some value outside it was sent and answered 4xx' }),
    }),
  ])
  .meta({ title: 'UnmetCondition' });

const conditionCountsShape = {
  conditionCount: z.int().min(0).meta({ description: 'Conditions declared' }),
  coveredConditionCount: z.int().min(0).meta({ description: 'Of those, the ones the run met' }),
  conditionCoveragePercent: percent('coveredConditionCount / conditionCount × 100'),
};

/** What an operation declares of each kind, and what the run met of it. */
const operationConditionsSchema = z
  .strictObject({
    fingerprint: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .meta({
        description:
          'The list of conditions counted: 16 hexadecimal digits naming it, as records and conditionsMet name it; ' +
          'a baseline compares positions in its list only where it counted the same',
      }),
    ...conditionCountsShape,
    examinedCallCount: z
      .int()
      .min(0)
      .meta({
        description:
          'Calls whose records said which of these conditions they met (the recording fixture’s, a HAR file’s read with the contract); ' +
          'statuses and path parameters are known from every call',
      }),
    otherDocumentVersion: z
      .literal(true)
      .optional()
      .meta({
        description:
          'Only when its calls’ records named another list of its conditions (recorded with another version of the document): ' +
          'what they met is not counted',
      }),
    kinds: z
      .partialRecord(z.enum(CONDITION_KINDS), z.strictObject({ conditionCount: z.int().min(1), coveredConditionCount: z.int().min(0) }))
      .meta({ description: 'The kinds it declares, each with its count and what the run met of it' }),
    unmet: z
      .array(unmetConditionSchema)
      .max(MAX_LISTED_UNMET_CONDITIONS)
      .meta({
        description: `The conditions the run did not meet, in document order (at most ${MAX_LISTED_UNMET_CONDITIONS})`,
      }),
    unlistedUnmetCount: z.int().min(0).meta({ description: 'Unmet conditions beyond those listed' }),
  })
  .meta({ title: 'OperationConditions' });

/** One operation of the contract, and what the run did with it. */
const contractOperationSchema = z
  .strictObject({
    operationId: z.string().optional().meta({ description: "The operation's operationId, when the document gives one" }),
    method: z.string().meta({ description: 'Upper case: GET' }),
    path: z.string().meta({ description: 'The path as the document writes it, without the base path: /users/{id}' }),
    endpoint: z.string().meta({ description: 'The endpoint label the calls matched to it take: GET /users/{id}' }),
    tags: z.array(z.string()),
    deprecated: z.boolean(),
    executionCount: z.int().min(0).meta({ description: 'Calls matched to this operation (0: it was never called)' }),
    failedExecutionCount: z.int().min(0),
    declaredStatuses: z.array(statusKey).meta({ description: 'The statuses its responses declare, in the document’s order' }),
    seenStatuses: z.array(statusCode).meta({ description: 'The status codes its calls got, ascending' }),
    undeclaredStatuses: z
      .array(statusCode)
      .meta({ description: 'Seen status codes that no declared status covers (a code, its range, or default)' }),
    unseenDeclaredStatuses: z.array(statusKey).meta({ description: 'Declared statuses (default left out) that no call got' }),
    responseTimeMs: latencyStatisticsSchema.meta({
      description: 'The statistics of its calls’ response times (those of its endpoint); every one null when it was never called',
    }),
    ...bodyCountsShape,
    conditions: operationConditionsSchema.meta({
      description:
        'The conditions its document declares (parameters, enum values, branches, optional properties, statuses, bounds) and the ones met',
    }),
  })
  .meta({ title: 'ContractOperation' });

const changeTest = z.strictObject({
  file: z.string().meta({ description: "Relative to the Playwright run's root folder, with / between folders" }),
  line: z.int().min(1),
  title: z.string().meta({ description: 'Its title path: file › describe › title' }),
});

/** What the run's evidence says of one change (docs/contract-diff.md, "Weighed by the evidence"). */
const changeEvidenceSchema = z
  .discriminatedUnion('exercised', [
    z.strictObject({ exercised: z.literal(false).meta({ description: 'No call of the run reached the operation' }) }),
    z.strictObject({
      exercised: z.literal(true),
      calls: z.int().min(1).meta({ description: 'The calls of the run that reached the operation' }),
      tests: z.array(changeTest).optional().meta({
        description: 'Only in reports written by the Playwright reporter: the tests that made them, by file, line and title',
      }),
      unlistedTestCount: z.int().min(0).meta({ description: 'Tests that called it beyond those listed (an endpoint lists at most 10)' }),
      presence: z
        .strictObject({
          direction: z.enum(['request', 'response']),
          status: z.string().optional().meta({ description: "A response property's: the status key of its response" }),
          of: z
            .int()
            .min(0)
            .meta({ description: 'The calls examined: answered with that status, or (request) whose conditions were checked' }),
          present: z.int().min(0).meta({ description: 'How many carried the property (sent the parameter)' }),
          atLeast: z
            .literal(true)
            .optional()
            .meta({ description: 'present is a lower bound: a required property, some bodies off the schema or not validated' }),
        })
        .optional()
        .meta({
          description:
            'Only for a property or a parameter, where the calls said which conditions they met: how many of them carried what changed',
        }),
    }),
  ])
  .meta({ title: 'ChangeEvidence' });

const changeSubjectSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('operation') }),
    z.strictObject({ kind: z.literal('parameter'), in: z.string(), name: z.string() }),
    z.strictObject({ kind: z.literal('requestBody'), mediaType: z.string().optional() }),
    z.strictObject({
      kind: z.literal('requestProperty'),
      property: z.array(z.string()).meta({ description: "Its path of names from the body's root; [] is the body itself" }),
    }),
    z.strictObject({ kind: z.literal('response'), status: statusKey }),
    z.strictObject({ kind: z.literal('responseProperty'), status: statusKey, property: z.array(z.string()) }),
  ])
  .meta({ title: 'ChangeSubject' });

const changeLevel = z.enum(CHANGE_LEVELS);

/** One change between the contract's BASE and its HEAD, weighed by the run's evidence. */
const contractChangeSchema = z
  .strictObject({
    rule: z
      .enum(Object.keys(CHANGE_RULES) as [ChangeRule, ...ChangeRule[]])
      .meta({ description: 'The rule that found it (docs/contract-diff.md)' }),
    level: changeLevel.meta({ description: 'breaking: a client written for BASE fails; warning: it may; info: it cannot' }),
    operation: z
      .strictObject({
        method: z.string().meta({ description: 'Upper case: GET' }),
        path: z.string().meta({ description: "The path template as the document writes it (HEAD's, or BASE's for a removed operation)" }),
        label: z.string().meta({ description: 'The endpoint label a run gives its calls: GET /users/{id}' }),
        operationId: z.string().optional(),
      })
      .meta({ description: 'The operation it touches: as HEAD declares it, or as BASE did when HEAD has it no more' }),
    base: where.optional().meta({ description: 'A JSON pointer to what changed in BASE; absent for an addition' }),
    head: where.optional().meta({ description: 'A JSON pointer to what changed in HEAD; absent for a removal' }),
    component: z
      .string()
      .optional()
      .meta({ description: 'The shared component it is inside, when reached through one (#/components/schemas/User)' }),
    subject: changeSubjectSchema.meta({ description: 'The part of the operation it is in, and the name or value' }),
    message: z.string().meta({ description: 'The change in words: response 200: property email removed' }),
    evidence: changeEvidenceSchema,
  })
  .meta({ title: 'ContractChange' });

/** The changes between the contract's BASE (openapiBase) and the run's document (openapi), weighed by the run's evidence. */
export const contractChangesSchema = z
  .strictObject({
    base: z.array(z.string()).min(1).meta({ description: 'The BASE documents, named as documents names the contract’s' }),
    summary: z
      .strictObject({
        breaking: z.int().min(0),
        warning: z.int().min(0),
        info: z.int().min(0),
        breakingExercised: z.int().min(0).meta({ description: 'Breaking changes whose operation the run’s calls reached' }),
      })
      .meta({ description: 'How many changes of each level, every change counted (listed or not)' }),
    changes: z
      .array(contractChangeSchema)
      .max(MAX_LISTED_CONTRACT_CHANGES)
      .meta({
        description: `The changes, breaking first, then warning, then info, each level in the diff's order; at most ${MAX_LISTED_CONTRACT_CHANGES}`,
      }),
    omittedChangeCount: z.int().min(1).optional().meta({ description: 'Only when more changes than are listed: how many were left out' }),
  })
  .meta({ title: 'ContractChanges' });

/** How the run's calls cover the API's contract. */
export const contractCoverageSchema = z
  .strictObject({
    documents: z
      .array(
        z.strictObject({
          path: z.string().meta({
            description:
              'The document as the user gave it: relative to the working folder when it is inside it (a path given relative to ' +
              'the settings file or the Playwright config joined to that folder first), with / between folders; ' +
              "never a machine's absolute path but one given outside the working folder",
          }),
          version: z.enum(['2.0', '3.0', '3.1']),
        }),
      )
      .meta({ description: 'The OpenAPI documents read, in the order given' }),
    operationCount: z.int().min(0),
    exercisedOperationCount: z.int().min(0).meta({ description: 'Operations called at least once' }),
    operationCoveragePercent: percent('exercisedOperationCount / operationCount × 100'),
    declaredResponseCount: z.int().min(0).meta({ description: 'Pairs of an operation and a status it declares, default left out' }),
    exercisedResponseCount: z.int().min(0).meta({ description: 'Of those pairs, the ones some call got' }),
    responseCoveragePercent: percent('exercisedResponseCount / declaredResponseCount × 100'),
    conditionCount: z.int().min(0).meta({ description: 'Conditions the operations declare, over every operation' }),
    coveredConditionCount: z.int().min(0).meta({ description: 'Of those, the ones the run met' }),
    conditionCoveragePercent: percent('coveredConditionCount / conditionCount × 100'),
    examinedCallCount: z.int().min(0).meta({
      description: 'Calls whose records said which conditions they met; 0: only statuses and path parameters were known',
    }),
    operations: z
      .array(contractOperationSchema)
      .meta({ description: 'Every operation, document by document, each in its document’s order' }),
    unmatchedEndpoints: z.array(z.strictObject({ endpoint: z.string(), executionCount: z.int().min(1) })).meta({
      description:
        'Endpoints of calls that match no operation (an undocumented endpoint, or a typo in a test), by label in code-unit order',
    }),
    deprecatedOperationsCalled: z
      .array(z.string())
      .meta({ description: 'Endpoint labels of deprecated operations that were called, in the document’s order' }),
    validatedCount: z.int().min(0).meta({ description: 'Bodies validated, over every operation' }),
    schemaViolationCount: z.int().min(0).meta({ description: 'Validated bodies that broke their schema, over every operation' }),
    notValidatedCount: z.int().min(0).meta({ description: 'Bodies not validated, over every operation' }),
    changes: contractChangesSchema.optional().meta({
      description:
        "Only when the run had a BASE document too (openapiBase): the changes between it and openapi, each weighed by the run's evidence",
    }),
  })
  .meta({ title: 'ContractCoverage' });

/**
 * The contract section as a baseline reads it: in a report of a version
 * before condition coverage, it and its operations count no conditions.
 */
export const baselineContractCoverageSchema = contractCoverageSchema
  .partial({ conditionCount: true, coveredConditionCount: true, conditionCoveragePercent: true, examinedCallCount: true })
  .extend({ operations: z.array(contractOperationSchema.partial({ conditions: true })) });

export type ContractCoverage = z.infer<typeof contractCoverageSchema>;
export type ContractOperationCoverage = ContractCoverage['operations'][number];
export type OperationConditionsReport = ContractOperationCoverage['conditions'];
export type UnmetCondition = OperationConditionsReport['unmet'][number];
export type ContractChanges = z.infer<typeof contractChangesSchema>;
