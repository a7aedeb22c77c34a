import { ReportFormatError } from '../errors.js';
import { describeJsonParseFailure } from '../input/parseInputJson.js';
import { firstIssueWhere } from '../issues/issuePath.js';
import { shorten } from '../renderValue.js';
import { HISTORY_KIND, HISTORY_FILE, type History, type SkippedHistoryLine } from './historyFile.js';
import { HISTORY_SCHEMA_VERSION, type HistoryRun } from './historyLine.js';
import { historyHeaderSchema, historyRunSchema, isHistoryRun } from './historyLineSchema.js';

// Parsing a history file's text (historyFile.ts reads and writes the file): the lines' schemas, loaded only by a run
// that reads a history.

/** Reads a history file's text (see {@link readHistory}); `progress`, when given, is told the lines and bytes read after each line. */
export function parseHistory(text: string, path: string, progress?: (lines: number, bytes: number) => void): History {
  return readLines(text, path, undefined, progress);
}

/**
 * The lines of the runs a history file's text holds, for an append: a line
 * in `known` (read and checked when the run started) is kept as it is,
 * without parsing it again; any other line (a run that appended since) is
 * checked as {@link parseHistory} checks it.
 */
export function historyLinesOf(text: string, path: string, known: ReadonlySet<string>): readonly string[] {
  return readLines(text, path, known).lines;
}

function readLines(text: string, path: string, known?: ReadonlySet<string>, progress?: (lines: number, bytes: number) => void): History {
  const runs: HistoryRun[] = [];
  const kept: string[] = [];
  const skippedLines: SkippedHistoryLine[] = [];
  const lines = text.split('\n');
  let headerSeen = false;
  let bytes = 0;
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    // What follows the file's last newline is no line (a history file ends with one): it is not counted.
    if (progress !== undefined && (line < lines.length || raw !== '')) {
      bytes += Buffer.byteLength(raw) + (line < lines.length ? 1 : 0);
      progress(line, bytes);
    }
    const content = (index === 0 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r$/, '');
    if (content.trim() === '') continue;
    if (!headerSeen) {
      checkHeader(content, line, path);
      headerSeen = true;
      continue;
    }
    if (known?.has(content) === true) {
      kept.push(content);
      continue;
    }
    let document: unknown;
    try {
      document = JSON.parse(content);
    } catch (error) {
      skippedLines.push({ line, message: `is not JSON: ${describeJsonParseFailure(error, content).detail}` });
      continue;
    }
    if (historyHeaderSchema.safeParse(document).success) {
      skippedLines.push({ line, message: 'is a header line after the first line' });
      continue;
    }
    if (isHistoryRun(document)) {
      runs.push(document);
      kept.push(content);
      continue;
    }
    const run = historyRunSchema.safeParse(document, { reportInput: false });
    if (run.success) {
      runs.push(run.data);
      kept.push(content);
      continue;
    }
    const where = firstIssueWhere(run.error);
    skippedLines.push({ line, message: `is not a run of a quality-evidence history${where}` });
  }
  return { runs, lines: kept, skippedLines };
}

/**
 * The first line that is not blank must be the header this version writes,
 * or the file is refused (a ReportFormatError, 65) and never rewritten: a
 * file that is no history (notes, another run's report, a part of an OpenAPI
 * document) would be replaced by one, and a history of another version
 * would lose its lines. Its text is never shown (the file may be anything,
 * secrets included); of a header, only what its schemaVersion states, shortened.
 */
function checkHeader(content: string, line: number, path: string): void {
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch {
    document = undefined;
  }
  const header = historyHeaderSchema.safeParse(document);
  if (header.success && header.data.schemaVersion === HISTORY_SCHEMA_VERSION) return;
  if (header.success && header.data.schemaVersion > HISTORY_SCHEMA_VERSION) {
    const reason = `is a history of schemaVersion ${header.data.schemaVersion}; this version of quality-evidence reads schemaVersion ${HISTORY_SCHEMA_VERSION}`;
    throw new ReportFormatError(path, reason, HISTORY_FILE);
  }
  if (isHeaderOfAnyVersion(document) && document.schemaVersion !== HISTORY_SCHEMA_VERSION) {
    const version = Object.hasOwn(document, 'schemaVersion') ? shorten(statedValueOf(content, document.schemaVersion), 40) : undefined;
    const stated = version === undefined ? 'no schemaVersion' : `schemaVersion ${version}`;
    const reads = `this version of quality-evidence reads schemaVersion ${HISTORY_SCHEMA_VERSION} (a whole number) only`;
    throw new ReportFormatError(
      path,
      `states ${stated} at line ${line}; ${reads}, and rewriting the file would lose its lines`,
      HISTORY_FILE,
    );
  }
  const expected = JSON.stringify({ schemaVersion: HISTORY_SCHEMA_VERSION, kind: HISTORY_KIND });
  const notHeader = `its first line is not the header a history starts with (${expected})`;
  const appends = 'a run appends only to a history, or to an empty or absent file, which it makes one';
  throw new ReportFormatError(path, `is not a history of quality-evidence: ${notHeader}; ${appends}`, HISTORY_FILE);
}

/** What the header of a history of any version is: an object of its kind, whatever its schemaVersion says. */
function isHeaderOfAnyVersion(document: unknown): document is { readonly schemaVersion?: unknown } {
  return (
    typeof document === 'object' && document !== null && !Array.isArray(document) && (document as { kind?: unknown }).kind === HISTORY_KIND
  );
}

// A schemaVersion as the line writes it (`1e400`, not the Infinity it parses to); rendered from the value where the line cannot be read so.
function statedValueOf(content: string, value: unknown): string {
  const written = /^\{\s*(?:"kind"\s*:\s*"[^"]*"\s*,\s*)?"schemaVersion"\s*:\s*("(?:[^"\\]|\\.)*"|[-+.\w]+)/.exec(content);
  return written?.[1] ?? JSON.stringify(value);
}
