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
  { inThisThread = false, progress }: { readonly inThisThread?: boolean; readonly progress?: RangeProgress | undefined } = {},
): Promise<RangeSummary> {
  const intake = new RecordIntake(range.rules);
  const take = intake.takeBatch.bind(intake);
  try {
    const extra = progress === undefined ? await readRange(chunks, range, take) : await readRangeTelling(chunks, range, intake, progress);
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

/** Told after each chunk of a range how many of its records and bytes have been read. */
export type RangeProgress = (records: number, bytes: number) => void;

// The range read as readRange reads it, counting its records and bytes as they go, for the command's progress line.
async function readRangeTelling(
  chunks: AsyncIterable<Buffer>,
  range: InputRange,
  intake: RecordIntake,
  progress: RangeProgress,
): Promise<RangeRead> {
  const read = { records: 0, bytes: 0 };
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      read.bytes += chunk.length;
      yield chunk;
      progress(read.records, read.bytes);
    }
  }
  return readRange(counted(), range, (batch) => {
    intake.takeBatch(batch);
    read.records += batch.records.length;
  });
}

// An accumulator sorted, summed and counted into histograms (see ExecutionAccumulator.seal), for the run on this thread to take.
function sealed(accumulator: ExecutionAccumulator): ExecutionAccumulator {
  accumulator.seal();
  return accumulator;
}
