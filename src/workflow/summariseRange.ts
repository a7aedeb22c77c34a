import { InputLimitError, InputSyntaxError } from '../errors.js';
import { readRange, type RangePlace, type RangeRead } from '../readers/readRange.js';
import type { EvidenceRules } from '../run/evidenceRules.js';
import { UnexplainedRecordError } from '../records/validateRecordList.js';
import type { EvidencePart } from '../run/evidenceRun.js';
import { RecordIntake } from '../run/recordIntake.js';
import type { ExecutionAccumulator } from '../summary/executionAccumulator.js';

/** One byte range of one input (see RangePlace), summarised on its own in a worker thread, with the rules its records are counted by. */
export interface InputRange extends RangePlace {
  readonly rules: EvidenceRules;
}

/** What a range yields: its part of the run (summary, problems located relative to the range) and what joining the parts needs. */
export type RangeSummary = (EvidencePart & RangeRead & { readonly ok: true }) | { readonly ok: false; readonly reason: string };

/**
 * Summarises one range from its bytes. Records are validated with locations
 * relative to the range. `inThisThread`: the summary stays an accumulator,
 * for the run on this thread to take as it is; otherwise it is flat data,
 * sorted, for another thread.
 */
export async function summariseRange(
  chunks: AsyncIterable<Buffer>,
  range: InputRange,
  { inThisThread = false }: { readonly inThisThread?: boolean } = {},
): Promise<RangeSummary> {
  const intake = new RecordIntake(range.rules);
  const take = intake.takeBatch.bind(intake);
  try {
    const extra = await readRange(chunks, range, take);
    const { issues, recordCount, invalidRecordCount, unlistedRecordCount } = intake.validation.snapshot();
    return {
      ok: true,
      summary: inThisThread ? sealed(intake.accumulator) : intake.accumulator.toData({ sorted: true, last: true }),
      issues,
      recordCount,
      invalidRecordCount,
      unlistedRecordCount,
      ...extra,
    };
  } catch (error) {
    // A syntax error, or an invalid record (a worker thread loads no zod to explain it): the input is read again in one piece,
    // which says exactly what is wrong.
    if (error instanceof InputSyntaxError || error instanceof UnexplainedRecordError || error instanceof InputLimitError)
      return { ok: false, reason: error.message };
    throw error;
  }
}

// An accumulator sorted, summed and counted into histograms (see ExecutionAccumulator.seal), for the run on this thread to take.
function sealed(accumulator: ExecutionAccumulator): ExecutionAccumulator {
  accumulator.seal();
  return accumulator;
}
