import { countByLevel, type ChangeLevel, type ContractChange } from '../contract/diff/contractChange.js';
import { diffContracts } from '../contract/diff/diffContracts.js';
import { weighChanges, weighedSummary, weighedSummaryLine, type WeighedChange } from '../evaluation/weighedChanges.js';
import { loadContract } from '../contract/loadContract.js';
import { displayPath } from '../io/displayPath.js';
import { writeReportFilesAtomically, type ReadFile } from '../io/writeReportAtomically.js';
import { documentName } from '../workflow/judgement.js';
import { basePathsIn } from '../evaluation/contractChanges.js';
import { readChangeEvidence } from './changeEvidenceFiles.js';
import { parseCommandLine } from './commandLine.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import { optionHelpLine } from './settingsHelp.js';
import type { CommandContext } from './summariseCommand.js';

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  report: { type: 'string' },
  history: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * What `contract-diff` writes: the two documents, how many changes of each
 * level, and the changes; with `--report` or `--history`, the evidence they
 * were weighed by, how many breaking changes it exercised, and each
 * change's evidence.
 */
export interface ContractDiffFile {
  readonly base: string;
  readonly head: string;
  readonly evidence?: EvidenceSource | undefined;
  readonly summary: Readonly<Record<ChangeLevel, number>> & { readonly breakingExercised?: number | undefined };
  readonly changes: readonly (ContractChange | WeighedChange)[];
}

/** The evidence changes were weighed by: a report (one run) or a history file (its runs); whether it names the tests behind the calls. */
export interface EvidenceSource {
  readonly source: 'report' | 'history';
  readonly path: string;
  readonly runCount: number;
  readonly testsKnown: boolean;
}

/**
 * `quality-evidence contract-diff BASE_DOC HEAD_DOC --output FILE`: every
 * change between two OpenAPI documents that matters to a client, each with
 * its rule and level (docs/contract-diff.md), written as JSON at once or not
 * at all. Each document is read as the `openapi` setting reads one: a
 * missing one is 66, one that is no OpenAPI document 78.
 */
export async function contractDiffCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} contract-diff --help`,
  );
  if (flags.help === true) {
    context.stdout.write(CONTRACT_DIFF_HELP);
    return EXIT_CODES.success;
  }
  const help = `see ${context.programName} contract-diff --help`;
  const documents = positionals.map((path) => path.trim());
  if (documents.length !== 2 || documents.some((path) => path === ''))
    throw new UsageError(`contract-diff takes two OpenAPI documents, BASE and HEAD (got ${positionals.length}); ${help}`);
  const output = flags.output?.trim();
  if (output === undefined || output === '')
    throw new UsageError(`contract-diff needs --output <file>, where the list of changes goes (JSON); ${help}`);

  const reportPath = flags.report?.trim();
  const historyPath = flags.history?.trim();
  const reportGiven = reportPath !== undefined && reportPath !== '';
  const historyGiven = historyPath !== undefined && historyPath !== '';
  if (reportGiven && historyGiven) throw new UsageError(`contract-diff weighs by one evidence: --report or --history, not both; ${help}`);

  const [basePath, headPath] = documents as [string, string];
  const weights = reportGiven || historyGiven ? await readChangeEvidence(context, 'contract-diff', reportPath, historyPath) : undefined;
  const base = await loadContract([basePath], context.fileSystem);
  const head = await loadContract([headPath], context.fileSystem);
  const changes = diffContracts(base, head);
  const cwd = process.cwd();
  const documentNames = { base: documentName(basePath, cwd), head: documentName(headPath, cwd) };
  let file: ContractDiffFile;
  let line: string;
  if (weights === undefined) {
    const summary = countByLevel(changes);
    file = { ...documentNames, summary, changes };
    line = summaryLine(summary);
  } else {
    const weighed = weighChanges(changes, base, head, weights, basePathsIn(head, base));
    const { index } = weights;
    const evidence: EvidenceSource = {
      source: index.source,
      path: documentName(weights.path, cwd),
      runCount: index.runCount,
      testsKnown: index.testsKnown,
    };
    file = { ...documentNames, evidence, summary: weighedSummary(weighed), changes: weighed };
    line = weighedSummaryLine(weighed, index);
  }
  const reads: ReadFile[] = [
    ...[...new Set([...(base.files ?? [basePath]), ...(head.files ?? [headPath])])].map((path) => ({ path, what: 'OpenAPI document' })),
    ...(weights === undefined ? [] : [{ path: weights.path, what: weights.index.source === 'report' ? 'report' : 'history file' }]),
  ];
  await writeReportFilesAtomically(
    context.fileSystem,
    [{ path: output, content: `${JSON.stringify(file, null, 2)}\n`, role: 'contract changes file' }],
    reads,
  );
  context.stdout.write(`${context.programName} contract-diff: ${line}; written to ${displayPath(output, cwd)}\n`);
  return EXIT_CODES.success;
}

/** `3 breaking changes, 1 warning, 2 info`. */
export function summaryLine(summary: Readonly<Record<ChangeLevel, number>>): string {
  const { breaking, warning, info } = summary;
  return `${breaking} breaking change${breaking === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info`;
}

const CONTRACT_DIFF_HELP = `Usage: quality-evidence contract-diff <BASE_DOC> <HEAD_DOC> --output <file> [--report <file> | --history <file>]

Lists every change between two OpenAPI documents (YAML or JSON; Swagger 2.0,
OpenAPI 3.0 or 3.1; $refs to local files brought in, nothing fetched) that
matters to a client, each with a rule id, a level (breaking, warning, info),
the operation it touches and JSON pointers into both documents, and writes
them as JSON: { base, head, summary: { breaking, warning, info }, changes }.
Operations are matched by method and path, the names of path parameters
aside; schemas are compared with their $refs followed and allOf merged.
Descriptions, examples and ordering are no change. The rules, each with an
example: docs/contract-diff.md.

With --report or --history, each change is weighed by the run's evidence:
the tests that call its operation and their calls, how many responses
carried a changed response property (requests a request property, calls a
parameter), or "not exercised"; the file gains { evidence } and
summary.breakingExercised, and the line printed reads
"3 breaking changes: 2 exercised by 7 tests, 1 not exercised by any test".

Options:
${optionHelpLine('-o, --output <file>', 'where the JSON list of changes goes (required; never BASE_DOC or HEAD_DOC)')}
${optionHelpLine('--report <file>', 'weigh each change by a report (quality-summary.json) of a run of the suite')}
${optionHelpLine('--history <file>', 'weigh each change by a history file (historyPath): its runs added up')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  git show main:openapi.yaml > base.yaml
  npx quality-evidence contract-diff base.yaml openapi.yaml --output contract-changes.json
  npx quality-evidence contract-diff base.yaml openapi.yaml --report quality-summary.json --output contract-changes.json

Exit codes: 0 the changes are written (breaking ones too: gate on them with
check's maxBreakingChanges, or with the file), 64 usage (not two documents,
no --output, both --report and --history), 65 a document, report or history
past the size limit or not UTF-8, a report not of this version, 66 a file is
missing or unreadable, 73 the file cannot be written, 78 a document is no
OpenAPI document this version reads.
`;
