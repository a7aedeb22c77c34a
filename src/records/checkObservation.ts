import * as z from 'zod';
import { endpointLabelSchema, responseTimeMsSchema } from './executionRecord.js';

/** The states of a quality check (SPEC 2.3, 3). `complete` and `failed` are final. */
export const CHECK_STATES = ['pending', 'complete', 'failed'] as const;

/** One of {@link CHECK_STATES}. */
const checkStateSchema = z
  .enum(CHECK_STATES, { error: 'must be one of "pending", "complete", "failed"' })
  .meta({ description: 'State of the check: pending, complete or failed' });

/** One observation of a quality check (SPEC 2.3). Other fields are ignored. */
export const checkObservationSchema = z
  .object({
    endpoint: endpointLabelSchema,
    state: checkStateSchema,
    responseTimeMs: responseTimeMsSchema,
  })
  .meta({ title: 'CheckObservation' });

/** `pending`, `complete` or `failed`. */
export type CheckState = z.infer<typeof checkStateSchema>;

/** One observation of a quality check (SPEC 2.3); the shape `checkObservationSchema` checks. */
export interface CheckObservation {
  /** The endpoint checked, `<METHOD> <path>`, e.g. `GET /orders`; normalised before summarising. */
  readonly endpoint: string;
  /** `pending` while the check runs; `complete` or `failed` once it is final. */
  readonly state: CheckState;
  /** How long the check's response took, in milliseconds: finite, 0 or more. */
  readonly responseTimeMs: number;
}

// The interface carries the doc comments an editor shows; this line keeps it
// and the schema from drifting apart.
checkObservationSchema satisfies z.ZodType<CheckObservation>;
