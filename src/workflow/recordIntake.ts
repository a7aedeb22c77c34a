import type { RecordLocation } from '../issues/location.js';
import type { RecordBatch } from '../readers/recordBatch.js';
import { executionRecordSchema, isExecutionRecord } from '../records/executionRecord.js';
import { createEndpointNormaliser } from '../records/normaliseExecutionRecords.js';
import { RecordValidation } from '../records/validateRecordList.js';
import { createExecutionAccumulator, type SummaryAccumulator } from '../summary/summariseExecutions.js';

/**
 * Where raw execution records go in: each is validated (problems kept with
 * their locations), and each valid one is normalised and counted in the
 * summary, making no object per record. The one intake of the workflow, of
 * a worker thread's range and of the Playwright reporter.
 */
export class RecordIntake {
  readonly validation: RecordValidation<typeof executionRecordSchema>;
  readonly accumulator: SummaryAccumulator;
  private readonly normalise = createEndpointNormaliser();

  /** @param noun what a record is called in the summary line of a validation error. */
  constructor(slowResponseThresholdMs: number, noun = 'record') {
    this.validation = new RecordValidation(executionRecordSchema, { noun, isValid: isExecutionRecord });
    this.accumulator = createExecutionAccumulator(slowResponseThresholdMs);
  }

  /** Takes one record; `locate` is called only when it is invalid. */
  take(record: unknown, locate: () => RecordLocation): void {
    if (this.validation.check(record, locate)) this.accumulator.addExecution(this.normalise(record.endpoint), record.statusCode, record.responseTimeMs);
  }

  /** Takes every record of a reader's batch. */
  takeBatch(batch: RecordBatch): void {
    const { records } = batch;
    for (let index = 0; index < records.length; index++) this.take(records[index], () => batch.location(index));
  }
}
