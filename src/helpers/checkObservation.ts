import { z } from 'zod';
import { endpointLabelSchema, responseTimeMsSchema } from '../records/executionRecord.js';

/** The states of a quality check (SPEC 2.3, 3). `complete` and `failed` are final. */
export const CHECK_STATES = ['pending', 'complete', 'failed'] as const;

/** One of {@link CHECK_STATES}. */
export const checkStateSchema = z
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

/** A check observation: `endpoint` (`<METHOD> <path>`), `state`, `responseTimeMs` (milliseconds). */
export type CheckObservation = z.infer<typeof checkObservationSchema>;
