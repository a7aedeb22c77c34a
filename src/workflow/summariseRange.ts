import { InputLimitError, InputSyntaxError } from '../errors.js';
import { readRange, type RangePlace, type RangeRead } from '../readers/readRange.js';
import type { EvidenceRules } from '../run/evidenceRules.js';
import { UnexplainedRecordError } from '../records/validateRecordList.js';
import type { EvidencePart } from '../run/evidenceRun.js';
import { RecordIntake } from '../run/recordIntake.js';
import type { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import type { RecordBatch } from '../readers/recordBatch.js';

/**
 * One byte range of one input (see RangePlace), summarised on its own in a
 * worker thread, with the rules its records are counted by: a promise of
 * them when the range is read before they are known (the worker that
 * planned the input early, src/cli/earlyWorkers.ts), its batches then kept
 * until they come.
 */
export interface InputRange extends RangePlace {
  readonly rules: EvidenceRules | Promise<EvidenceRules>;
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
  const intake = new LaterIntake(range.rules);
  const bytes = intake.known ? chunks : heldBack(chunks, intake);
  const told = { records: 0, bytes: 0 };
  try {
    const extra =
      progress === undefined ? await readRange(bytes, range, intake.take) : await readRangeTelling(bytes, range, intake, progress, told);
    const taken = await intake.whole();
    // Told once more at the end: a range read before its rules came may have told nothing (it learns with them whether to tell).
    progress?.(told.records, told.bytes);
    const { issues, recordCount, invalidRecordCount, unlistedRecordCount } = taken.validation.snapshot();
    return {
      ok: true,
      summary: inThisThread ? sealed(taken.accumulator) : taken.accumulator.toData({ sorted: true, last: true }),
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

/**
 * A RecordIntake made once the rules are known: batches taken before then
 * are kept, and taken in order first (on the next batch after the rules
 * came, or when the range is read), so that an error they raise is the
 * range's, where it was read.
 */
class LaterIntake {
  private intake: RecordIntake | undefined;
  private rules: EvidenceRules | undefined;
  private readonly kept: RecordBatch[] = [];
  private readonly coming: Promise<EvidenceRules> | undefined;

  constructor(rules: EvidenceRules | Promise<EvidenceRules>) {
    if (rules instanceof Promise) {
      this.coming = rules;
      void rules.then((known) => (this.rules = known)).catch(() => undefined);
    } else this.intake = new RecordIntake(rules);
  }

  readonly take = (batch: RecordBatch): void => {
    const intake = this.intake ?? this.madeOnceKnown();
    if (intake === undefined) this.kept.push(batch);
    else intake.takeBatch(batch);
  };

  /** Whether the rules were known from the start. */
  get known(): boolean {
    return this.coming === undefined;
  }

  /** Resolved once the rules are known. */
  async ready(): Promise<void> {
    await this.coming;
  }

  /** The intake with every batch taken, once the rules are known. */
  async whole(): Promise<RecordIntake> {
    if (this.intake !== undefined) return this.intake;
    this.rules = await this.coming!;
    return this.madeOnceKnown()!;
  }

  private madeOnceKnown(): RecordIntake | undefined {
    if (this.rules === undefined) return undefined;
    const intake = new RecordIntake(this.rules);
    this.intake = intake;
    for (const batch of this.kept.splice(0)) intake.takeBatch(batch);
    return intake;
  }
}

/** How many bytes of a range are read before its rules are known: past them, the read waits (a main thread slow to load keeps no whole region). */
const BYTES_READ_BEFORE_RULES = 32 * 1024 * 1024;

// The chunks, the next one only once the rules are known when BYTES_READ_BEFORE_RULES have been read without them.
async function* heldBack(chunks: AsyncIterable<Buffer>, intake: LaterIntake): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (bytes > BYTES_READ_BEFORE_RULES) await intake.ready();
    yield chunk;
  }
}

/** Told after each chunk of a range how many of its records and bytes have been read. */
export type RangeProgress = (records: number, bytes: number) => void;

// The range read as readRange reads it, counting its records and bytes as they go, for the command's progress line.
async function readRangeTelling(
  chunks: AsyncIterable<Buffer>,
  range: InputRange,
  intake: LaterIntake,
  progress: RangeProgress,
  read: { records: number; bytes: number },
): Promise<RangeRead> {
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      read.bytes += chunk.length;
      yield chunk;
      progress(read.records, read.bytes);
    }
  }
  return readRange(counted(), range, (batch) => {
    intake.take(batch);
    read.records += batch.records.length;
  });
}

// An accumulator sorted, summed and counted into histograms (see ExecutionAccumulator.seal), for the run on this thread to take.
function sealed(accumulator: ExecutionAccumulator): ExecutionAccumulator {
  accumulator.seal();
  return accumulator;
}
