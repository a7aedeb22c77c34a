import * as z from 'zod';
import {
  BODY_NOT_VALIDATED_REASONS,
  MAX_KEYWORD_LENGTH,
  MAX_POINTER_LENGTH,
  MAX_RECORDED_VIOLATIONS,
  MAX_VIOLATION_COUNT,
} from './bodyCheckRules.js';

export { BODY_NOT_VALIDATED_REASONS, MAX_RECORDED_VIOLATIONS, isBodyCheck, type BodyNotValidatedReason } from './bodyCheckRules.js';

/**
 * The outcome of checking a call's bodies against the API's contract, as a
 * record carries it (the recording fixture and the HAR reader make it; see
 * src/contract/bodyConformance.ts): per body, whether it was validated and
 * how many violations were found, with the place in the body and the schema
 * keyword of the first few. Never a value from the body.
 */

const violationRule =
  'must be { pointer, keyword }: a JSON pointer into the body ("" or starting with "/", ' +
  `at most ${MAX_POINTER_LENGTH} characters) and a schema keyword (1 to ${MAX_KEYWORD_LENGTH} characters)`;
const outcomeRule =
  'must be { validated: true, violationCount, violations? } or { validated: false, reason } ' +
  `with reason one of ${BODY_NOT_VALIDATED_REASONS.join(', ')}`;

const violationSchema = z
  .object(
    {
      pointer: z
        .string({ error: violationRule })
        .max(MAX_POINTER_LENGTH, { error: violationRule })
        .regex(/^(?:\/[^]*)?$/, { error: violationRule }),
      keyword: z.string({ error: violationRule }).min(1, { error: violationRule }).max(MAX_KEYWORD_LENGTH, { error: violationRule }),
    },
    { error: violationRule },
  )
  .meta({
    description:
      'Where in the body (a JSON pointer, array indices as they were) ' +
      'and which schema keyword failed (`type`, `required`, …); `json` when a JSON body did not parse',
  });

const bodyOutcomeSchema = z
  .discriminatedUnion(
    'validated',
    [
      z.object({
        validated: z.literal(true),
        violationCount: z.int({ error: outcomeRule }).min(0, { error: outcomeRule }).max(MAX_VIOLATION_COUNT, { error: outcomeRule }),
        violations: z
          .array(violationSchema, { error: violationRule })
          .max(MAX_RECORDED_VIOLATIONS, { error: `must list at most ${MAX_RECORDED_VIOLATIONS} violations` })
          .optional(),
      }),
      z.object({ validated: z.literal(false), reason: z.enum(BODY_NOT_VALIDATED_REASONS, { error: outcomeRule }) }),
    ],
    { error: outcomeRule },
  )
  .meta({
    title: 'BodyOutcome',
    description: 'One body checked against its schema: the number of violations and the first few, or why it was not validated',
  });

/** A record's body check: the response's and the request's, each when there was one to check. */
export const bodyCheckSchema = z
  .object(
    { response: bodyOutcomeSchema.optional(), request: bodyOutcomeSchema.optional() },
    { error: 'must be an object { response?, request? } of body outcomes when present' },
  )
  .meta({
    title: 'BodyCheck',
    description:
      "Optional: the call's bodies checked against the API's contract (made by the recording fixture and the HAR reader " +
      'when a contract is given); no body value is ever kept',
  });

export type BodyOutcome = z.infer<typeof bodyOutcomeSchema>;
export type BodyCheck = z.infer<typeof bodyCheckSchema>;
