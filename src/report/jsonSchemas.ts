import { z } from 'zod';
import { checkObservationSchema } from '../helpers/checkObservation.js';
import { executionInputSchema } from '../records/executionRecord.js';
import { qualityReportSchema } from './qualityReport.js';

/**
 * JSON Schemas (draft 2020-12) of the input file and of the report, derived
 * from the zod schemas the code validates with, so the published contract
 * cannot drift from the checks. Hand them to an editor or another CI step.
 */
export function createQualityEvidenceJsonSchemas(): {
  readonly input: z.core.JSONSchema.BaseSchema;
  readonly report: z.core.JSONSchema.BaseSchema;
  readonly checkObservation: z.core.JSONSchema.BaseSchema;
} {
  return {
    input: z.toJSONSchema(executionInputSchema, { io: 'input' }),
    report: z.toJSONSchema(qualityReportSchema),
    checkObservation: z.toJSONSchema(checkObservationSchema, { io: 'input' }),
  };
}
