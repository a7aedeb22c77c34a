import * as z from 'zod';
import { groupDigits } from '../renderValue.js';
import { MAX_CONDITION_POSITION } from './conditionsRules.js';

export { MAX_CONDITION_POSITION };

/**
 * A record's `conditions`: which of its operation's declared conditions the
 * call met (see src/contract/conditionsMet.ts), as positions in the list
 * the fingerprint names. The recording fixture and the HAR reader make it;
 * it holds no value of the call.
 */

const conditionsRule =
  'must be { fingerprint, met, outside? }: 16 lower-case hexadecimal digits and ascending lists of positions ' +
  `(integers 0 to ${groupDigits(MAX_CONDITION_POSITION)}, each once)`;

const positions = z
  .array(z.int({ error: conditionsRule }).min(0, { error: conditionsRule }).max(MAX_CONDITION_POSITION, { error: conditionsRule }), {
    error: conditionsRule,
  })
  .refine((list) => list.every((position, index) => index === 0 || position > list[index - 1]!), { error: conditionsRule });

export const conditionsRecordSchema = z
  .object(
    {
      fingerprint: z.string({ error: conditionsRule }).regex(/^[0-9a-f]{16}$/, { error: conditionsRule }),
      met: positions.meta({ description: 'Positions of the conditions met (a bound: reached exactly), ascending' }),
      outside: positions
        .optional()
        .meta({ description: 'Positions of the bounds a value outside of was sent, the call answered 4xx, ascending' }),
    },
    { error: conditionsRule },
  )
  .meta({
    title: 'ConditionsMet',
    description:
      "Optional: which of its operation's declared conditions the call met (made by the recording fixture and the HAR reader " +
      'when a contract is given), as positions in the list the fingerprint names; no value of the call is kept',
  });

export type ConditionsRecord = z.infer<typeof conditionsRecordSchema>;
