import type { QualityReport } from '../qualityReport.js';

/**
 * `quality-summary.json`'s bytes: JSON, 2-space indent, trailing newline, no
 * timestamps. A histogram's `[index, count]` pairs stand on one line
 * (`"bins": [[81, 1], [116, 3]]`): indented one number to a line, they
 * would make most of the file. Each histogram's bins are written as one
 * marked string while the report is stringified, and the marks are then
 * taken out: only a histogram has a key named "bins", and the mark (a
 * control character, which JSON escapes) starts no string of the bins' own.
 * An endpoint's sole status is written without its histogram, the
 * endpoint's (schemaVersion 2, reportFile.ts); the report keeps it.
 */
export function formatReport(report: QualityReport): string {
  return [...formatReportPieces(report)].join('');
}

/**
 * {@link formatReport}'s text in pieces, one an endpoint, that joined are
 * the text, each made when the next is asked for: a report of 50,000
 * endpoints written piece by piece (FileSystem.createFileFromPieces) is
 * never held as text, neither whole nor in pieces, only one endpoint's.
 * Each piece is whole UTF-16 (JSON escapes a lone surrogate).
 */
export function* formatReportPieces(report: QualityReport): Generator<string, void, undefined> {
  let opened = false;
  for (const [key, value] of Object.entries(report)) {
    if (value === undefined) continue;
    const head = `${opened ? ',\n' : '{\n'}  ${JSON.stringify(key)}: `;
    opened = true;
    if (key === 'endpoints' && Array.isArray(value) && value.length > 0) {
      yield `${head}[\n    `;
      for (let index = 0; index < value.length; index++)
        yield index === 0 ? atDepth(value[index], 2) : `,\n    ${atDepth(value[index], 2)}`;
      yield '\n  ]';
    } else yield head + atDepth(value, 1);
  }
  // V8 keeps the subject of the last match (for RegExp.lastMatch and its kin): a match on a short string lets the
  // last endpoint's text go.
  FORGET_SUBJECT.test(' ');
  yield opened ? '\n}\n' : '{}\n';
}

/**
 * A value's JSON as it stands `depth` levels deep in the report: 2-space
 * indent, bins on one line. Stringified inside as many arrays, whose
 * brackets are then cut off: `JSON.stringify` indents it itself, where
 * indenting its lines afterwards would cost a pass over the text.
 */
function atDepth(value: unknown, depth: 1 | 2): string {
  const wrapped = depth === 1 ? [value] : [[value]];
  const text = JSON.stringify(wrapped, asWritten, 2).replaceAll(MARKED_BINS, '"bins": [$1]');
  // `[\n  ` and `\n]` around it one level deep; `[\n  [\n    ` and `\n  ]\n]` two levels deep.
  return depth === 1 ? text.slice(4, -2) : text.slice(10, -6);
}

const BINS_MARK = '\u0001';
const MARKED_BINS = /"bins": "\\u0001([^"]*)"/g;
const FORGET_SUBJECT = / /;

function asWritten(this: unknown, key: string, value: unknown): unknown {
  if (
    key === 'latencyByStatus' &&
    Array.isArray(value) &&
    value.length === 1 &&
    typeof this === 'object' &&
    this !== null &&
    'latencyHistogram' in this
  ) {
    const { latencyHistogram: _endpoints, ...sole } = value[0] as Record<string, unknown>;
    return [sole];
  }
  if (key !== 'bins' || !Array.isArray(value) || typeof this !== 'object' || this === null || !('relativeAccuracy' in this)) return value;
  return binsText(value as readonly (readonly [number, number])[]);
}

// A histogram's bins as one marked line. Read by index and added to one string, not mapped and destructured: this runs
// once per histogram, before the JIT has optimised it, when each destructuring walks an iterator.
function binsText(bins: readonly (readonly [number, number])[]): string {
  let text = BINS_MARK;
  for (let at = 0; at < bins.length; at++) {
    const bin = bins[at]!;
    text += at === 0 ? `[${bin[0]}, ${bin[1]}]` : `, [${bin[0]}, ${bin[1]}]`;
  }
  return text;
}
