import { join } from 'node:path';
import type { Contract } from '../contract/contract.js';
import { loadContract } from '../contract/loadContract.js';
import { ReportFormatError, ReportWriteError } from '../errors.js';
import { parseReport } from '../evaluation/parseReport.js';
import { conditionCoverageOf } from '../evaluation/conditionCoverage.js';
import { firstIssueWhere } from '../issues/issuePath.js';
import { displayPath } from '../io/displayPath.js';
import type { FileSystem } from '../io/fileSystem.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { writeReportFilesAtomically, type ReadFile } from '../io/writeReportAtomically.js';
import { qualityReportSchema, type QualityReport } from '../report/qualityReport.js';
import { escapeControlCharacters, quotePath, quoteText } from '../renderValue.js';
import { DRAFT_FILE_SUFFIX, draftTests, type DraftedFile } from '../suggest/draftTests.js';
import { DRAFT_MARKER } from '../suggest/specSource.js';
import { documentName } from '../workflow/judgement.js';
import { parseCommandLine } from './commandLine.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import { optionHelpLine } from './settingsHelp.js';
import type { CommandContext } from './summariseCommand.js';

const OPTIONS = {
  openapi: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The seed of the values the document does not give, when --seed does not name one. */
export const DEFAULT_SEED = 1;

/** The drafts could not be written (exit 73, as a report that cannot be written): nothing was. */
class DraftWriteError extends ReportWriteError {
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.message = `cannot write the drafts: ${reason}`;
  }
}

/**
 * `quality-evidence suggest REPORT --openapi FILE --output DIR [--seed N]`:
 * drafts Playwright specs for the conditions of the API the report's run
 * never met (docs/suggest.md), one file per tag, written into DIR at once
 * or not at all. A file there is replaced only when it is one of suggest's
 * drafts: its name ends `.suggested.spec.ts` and it starts with the drafts'
 * header line.
 */
export async function suggestCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} suggest --help`,
  );
  if (flags.help === true) {
    context.stdout.write(SUGGEST_HELP);
    return EXIT_CODES.success;
  }
  const help = `see ${context.programName} suggest --help`;
  if (positionals.length !== 1) throw new UsageError(`suggest takes one report file (got ${positionals.length}); ${help}`);
  const documents = (flags.openapi ?? []).map((path) => path.trim());
  if (documents.length === 0 || documents.some((path) => path === ''))
    throw new UsageError(`suggest needs --openapi <file>, each OpenAPI document the report's run was made with; ${help}`);
  const output = flags.output?.trim();
  if (output === undefined || output === '')
    throw new UsageError(`suggest needs --output <folder>, where the drafted spec files go; ${help}`);
  const seed = flags.seed === undefined ? DEFAULT_SEED : seedOf(flags.seed, help);

  const reportPath = positionals[0]!;
  const report = await readReport(context.fileSystem, reportPath);
  const contract = await loadContract(documents, context.fileSystem);
  refuseOtherContract(report, contract, reportPath);
  const cwd = process.cwd();
  const drafts = draftTests(contract, conditionCoverageOf(report, contract), {
    seed,
    report: documentName(reportPath, cwd),
    documents: contract.documents.map((document) => documentName(document.path, cwd)),
  });
  for (const note of drafts.notes) context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(note)}\n`);
  const shownFolder = displayPath(output, cwd);
  if (drafts.files.length === 0) {
    context.stdout.write(
      `${context.programName} suggest: nothing to draft: the run met every condition of the ${count(contract.operations.length, 'operation')} ` +
        `it could be drafted for; nothing was written to ${shownFolder}\n`,
    );
    return EXIT_CODES.success;
  }
  const files = drafts.files.map((file) => ({ ...file, path: join(output, file.path) }));
  await refuseOtherFiles(context.fileSystem, files);
  const reads: ReadFile[] = [
    { path: reportPath, what: 'report' },
    ...(contract.files ?? documents).map((path) => ({ path, what: 'OpenAPI document' })),
  ];
  try {
    await writeReportFilesAtomically(
      context.fileSystem,
      files.map((file) => ({ path: file.path, content: file.text, role: 'drafted spec' })),
      reads,
    );
  } catch (error) {
    if (!(error instanceof ReportWriteError)) throw error;
    throw new DraftWriteError(error.message.replace(/^cannot write the report: /, ''), { cause: error });
  }
  const fixme = (number: number) => (number === 0 ? '' : ` (${number} fixme)`);
  context.stdout.write(
    `${context.programName} suggest: ${count(files.length, 'file')}, ${count(drafts.testCount, 'test')}${fixme(drafts.fixmeCount)} ` +
      `drafted in ${shownFolder}\n`,
  );
  for (const file of files)
    context.stdout.write(`  ${displayPath(file.path, cwd)}: ${count(file.testCount, 'test')}${fixme(file.fixmeCount)}\n`);
  return EXIT_CODES.success;
}

function count(number: number, noun: string): string {
  return `${number} ${noun}${number === 1 ? '' : 's'}`;
}

/** --seed: a whole number from 0 to 4294967295. */
function seedOf(text: string, help: string): number {
  const trimmed = text.trim();
  const seed = /^\d{1,10}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(seed) || seed > 0xffffffff)
    throw new UsageError(`--seed must be a whole number from 0 to 4294967295 (got ${quoteText(text, 40)}); ${help}`);
  return seed;
}

/** The report: one of this version, complete (65 naming the first field that is not), with a contract section. */
async function readReport(fileSystem: FileSystem, path: string): Promise<QualityReport> {
  const text = await readInputFile(fileSystem, path, 'report', REPORT_FILE_LIMIT_BYTES);
  const checked = qualityReportSchema.safeParse(parseReport(text, path, 'report'), { reportInput: false });
  if (!checked.success)
    throw new ReportFormatError(
      path,
      `is not a complete report of this version of quality-evidence${firstIssueWhere(checked.error)}: suggest takes reports written by this version`,
    );
  if (checked.data.contract === undefined)
    throw new ReportFormatError(
      path,
      'holds no contract section: its run had no OpenAPI document; run the suite with one (openapi, --openapi or QE_OPENAPI_PATH) ' +
        'and draft from that report',
    );
  return checked.data;
}

/**
 * Refuses a report made with other documents: its contract section lists
 * the operations its run was judged by, which must be these documents'
 * operations, label for label in order; what it met would otherwise be
 * read against conditions it never saw.
 */
function refuseOtherContract(report: QualityReport, contract: Contract, path: string): void {
  const reported = report.contract?.operations.map((operation) => operation.endpoint) ?? [];
  const declared = contract.operations.map((operation) => operation.label);
  const at = reported.findIndex((label, index) => label !== declared[index]);
  if (at < 0 && reported.length === declared.length) return;
  const differs =
    at < 0
      ? `the documents declare ${count(declared.length, 'operation')}, its contract section ${reported.length}`
      : `operation ${at + 1} is ${quoteText(reported[at]!, 80)} in its contract section and ` +
        `${declared[at] === undefined ? 'none' : quoteText(declared[at], 80)} in the documents`;
  throw new ReportFormatError(
    path,
    `was not made with these OpenAPI documents (${differs}): draft from a report of a run with the same documents`,
  );
}

/**
 * Refuses, before anything is written, to replace a file that is not one of
 * suggest's drafts: one there must start with the drafts' first line (a
 * draft a reviewer kept and renamed, or whose header they removed, is theirs).
 */
async function refuseOtherFiles(fileSystem: FileSystem, files: readonly DraftedFile[]): Promise<void> {
  const marker = Buffer.from(DRAFT_MARKER, 'utf8');
  for (const { path } of files) {
    if (!path.endsWith(DRAFT_FILE_SUFFIX)) throw new DraftWriteError(`${quotePath(path)} is not a drafted spec's name`);
    const facts = await fileSystem.stat(path).catch(() => undefined);
    // A folder, a device or a broken link there is refused by the write itself, saying what it is.
    if (facts?.kind !== 'file') continue;
    let start: Buffer = Buffer.alloc(0);
    try {
      // Only as much as the header's first line: the rest of the file is not read.
      for await (const chunk of await fileSystem.openChunks(path)) {
        start = Buffer.concat([start, chunk]);
        if (start.length >= marker.length) break;
      }
    } catch (error) {
      throw new DraftWriteError(`${quotePath(path)} is there and cannot be read to see whether suggest drafted it`, { cause: error });
    }
    if (!start.subarray(0, marker.length).equals(marker))
      throw new DraftWriteError(
        `${quotePath(path)} is there and is no draft of suggest (its first line is not the drafts' header): ` +
          'suggest replaces only its own drafts; move the file, or name another --output',
      );
  }
}

const SUGGEST_HELP = `Usage: quality-evidence suggest <report.json> --openapi <file> --output <folder> [--seed <n>]

Drafts Playwright tests for what the report's run never met of its OpenAPI
documents (docs/suggest.md): an operation never called, a declared status
never seen, an enum value never sent, an optional parameter never sent or
never left out, a request body's oneOf/anyOf branch or optional property
never sent, a bound's value at it and just outside it. One TypeScript spec
file per tag (<tag>.suggested.spec.ts, importing quality-evidence/test), one
test per gap, each sending a request built from the document and asserting
the status it declares; a test.fixme where a value must be supplied (an id
that must exist first) or the server arranged (a 404, a 500, what a
response must hold). Values come from the document (examples, defaults,
enum values, schemas) and, where it gives none, from the seed: the same
report, documents and seed draft the same files, byte for byte. The report
must be of a run made with these documents.

Options:
${optionHelpLine('--openapi <file>', 'an OpenAPI document the run was made with (required; repeatable, in the run’s order)')}
${optionHelpLine('-o, --output <folder>', 'where the drafts go (required; made if missing); a file there is replaced only if suggest drafted it')}
${optionHelpLine('--seed <n>', `the seed of made-up values, a whole number from 0 to 4294967295 (default ${DEFAULT_SEED})`)}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx quality-evidence suggest out/quality-summary.json --openapi openapi.yaml --output tests/suggested
  npx quality-evidence suggest out/quality-summary.json --openapi openapi.yaml --output tests/suggested --seed 7

Exit codes: 0 drafted (or nothing to draft), 64 usage, 65 not a report of
this version (or one with no contract section, or made with other
documents), 66 the report or a document is missing, 73 the drafts cannot be
written (a file there that suggest did not draft), 78 a document that is
not OpenAPI.
`;
