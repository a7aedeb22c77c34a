import { RecordValidationError } from '../errors.js';
import type { RecordLocation } from '../issues/location.js';
import { executionRecordSchema, isExecutionRecord, type ExecutionRecord } from '../records/executionRecord.js';
import { validateRecordList } from '../records/validateRecordList.js';
import { describeType } from '../renderValue.js';
import { JsonListScanner } from './jsonListScanner.js';
import { EndpointBytes } from './recordScanner.js';
import type { RecordBatch } from './recordBatch.js';

/**
 * Reads a JSON document of records: `{ "executions": [...] }` or a bare
 * array. The list is streamed (see JsonListScanner), so a document of any
 * size is read in bounded memory; its top-level shape is judged once it
 * ends, from the document with its list emptied.
 */
export async function* readJsonRecords(
  chunks: AsyncIterable<Buffer>,
  file: string | undefined,
  { scan = true }: { readonly scan?: boolean | undefined } = {},
): AsyncGenerator<RecordBatch> {
  const scanner = new JsonListScanner([[], ['executions']], scan ? { records: new EndpointBytes() } : {});
  let listPath = '';
  for await (const chunk of chunks) {
    const { elements, firstIndex, scanned } = scanner.push(chunk);
    if (elements.length === 0) continue;
    listPath = scannerListPath(scanner);
    const path = listPath;
    yield {
      records: elements,
      location: (index): RecordLocation => ({ kind: 'list', listPath: path, index: firstIndex + index, file }),
      ...(scanned === undefined ? {} : { scanned }),
    };
  }
  const tail = scanner.finish();
  if (tail.elements.length > 0) {
    const path = scannerListPath(scanner);
    yield {
      records: tail.elements,
      location: (index): RecordLocation => ({ kind: 'list', listPath: path, index: tail.firstIndex + index, file }),
    };
  }
  const document = scanner.end();
  if (!document.listFound || !hasRecordList(document.skeleton)) throw wrongTopLevelShape(document.skeleton, file);
}

function scannerListPath(scanner: JsonListScanner): string {
  return scanner.foundListPath()?.join('.') ?? '';
}

/**
 * Validates a JSON document of records that is already parsed:
 * `{ "executions": [...] }` or a bare array; an empty list is valid.
 */
export function validateExecutionRecords(document: unknown): readonly ExecutionRecord[] {
  if (Array.isArray(document)) return validateRecordList(document, executionRecordSchema, '', 'record', isExecutionRecord);
  if (hasRecordList(document)) {
    return validateRecordList(
      (document as { executions: unknown[] }).executions,
      executionRecordSchema,
      'executions',
      'record',
      isExecutionRecord,
    );
  }
  throw wrongTopLevelShape(document, undefined);
}

// JSON.parse keeps the last of repeated keys: the list read must be the one it would keep.
function hasRecordList(skeleton: unknown): boolean {
  if (Array.isArray(skeleton)) return true;
  return typeof skeleton === 'object' && skeleton !== null && Array.isArray((skeleton as Record<string, unknown>)['executions']);
}

// A report read as records, the mistake of someone who meant `check` or `merge`.
function isReport(skeleton: object): boolean {
  return 'schemaVersion' in skeleton && 'executionCount' in skeleton && 'slowResponseThresholdMs' in skeleton;
}

function wrongTopLevelShape(skeleton: unknown, file: string | undefined): RecordValidationError {
  const found =
    typeof skeleton !== 'object' || skeleton === null || Array.isArray(skeleton)
      ? describeType(skeleton)
      : 'executions' in skeleton
        ? `an object whose "executions" is ${describeType((skeleton as Record<string, unknown>)['executions'])}`
        : isReport(skeleton)
          ? 'a report of quality-evidence (quality-summary.json), not records: ' +
            '`quality-evidence check` judges a report, `quality-evidence merge` merges reports'
          : 'an object without an "executions" array';
  return RecordValidationError.topLevel(
    {
      location: { kind: 'document', file },
      path: [],
      expected: 'expected an object with an "executions" array, or an array of records',
      found: `found ${found}`,
    },
    file,
  );
}
