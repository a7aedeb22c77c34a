import * as z from 'zod';
import { budgetsSchema } from '../config/budgetsSchema.js';
import { settingsFileSchema } from '../config/settings.js';
import { checkObservationSchema } from '../records/checkObservation.js';
import { executionInputSchema, executionRecordSchema } from '../records/executionRecord.js';
import { latencyByStatusFileSchema, qualityReportFileSchema } from './reportFile.js';

/** The JSON Schemas quality-evidence publishes, by name. */
export interface QualityEvidenceJsonSchemas {
  /** The input file of the runner: `{ "executions": [...] }` or a bare array of records. */
  readonly input: z.core.JSONSchema.BaseSchema;
  /** `quality-summary.json`, as its file holds it (an endpoint's sole status without its histogram, the endpoint's). */
  readonly report: z.core.JSONSchema.BaseSchema;
  /** A quality check observation, as `summariseChecks` takes it. */
  readonly checkObservation: z.core.JSONSchema.BaseSchema;
  /** `quality-evidence.config.json`. */
  readonly settings: z.core.JSONSchema.BaseSchema;
  /** A budgets file (`QE_BUDGETS_PATH`, `--budgets`), also the reporter option `budgets`. */
  readonly budgets: z.core.JSONSchema.BaseSchema;
}

/** The file each schema is published as, in the package's `schemas/` folder. */
export const JSON_SCHEMA_FILES: Readonly<Record<keyof QualityEvidenceJsonSchemas, string>> = {
  input: 'input.schema.json',
  report: 'report.schema.json',
  checkObservation: 'check-observation.schema.json',
  settings: 'settings.schema.json',
  budgets: 'budgets.schema.json',
};

/**
 * JSON Schemas (draft 2020-12) of the input file, the report, a check
 * observation, the settings file and the budgets file, derived from the zod schemas the code
 * validates with, so the published contract cannot drift from the checks.
 * The package ships them in `schemas/`: point a settings file's `"$schema"`
 * at `./node_modules/quality-evidence/schemas/settings.schema.json` for
 * completion in editors.
 */
export function createQualityEvidenceJsonSchemas(): QualityEvidenceJsonSchemas {
  return {
    input: z.toJSONSchema(executionInputSchema, { io: 'input', override: requireStatusOrErrorCode }),
    report: z.toJSONSchema(qualityReportFileSchema, { override: requireHistogramsOfSeveralStatuses }),
    checkObservation: z.toJSONSchema(checkObservationSchema, { io: 'input' }),
    settings: z.toJSONSchema(settingsFileSchema, { io: 'input' }),
    budgets: z.toJSONSchema(budgetsSchema, { io: 'input' }),
  };
}

// The record's "exactly one of statusCode and errorCode" is a refinement,
// which zod cannot express in JSON Schema by itself.
function requireStatusOrErrorCode({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  if (zodSchema === executionRecordSchema) jsonSchema.oneOf = [{ required: ['statusCode'] }, { required: ['errorCode'] }];
}

// An endpoint's sole status may leave out its histogram, several may not: a
// refinement on the endpoint (reportFile.ts), said here on its list.
function requireHistogramsOfSeveralStatuses({
  zodSchema,
  jsonSchema,
}: {
  zodSchema: unknown;
  jsonSchema: z.core.JSONSchema.BaseSchema;
}): void {
  if (zodSchema === latencyByStatusFileSchema) {
    jsonSchema.if = { minItems: 2 };
    jsonSchema.then = { items: { required: ['latencyHistogram'] } };
  }
}
