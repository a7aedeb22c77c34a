import { CHANGE_LEVELS, type ChangeLevel, type ContractChange } from '../contract/diff/contractChange.js';
import { diffContracts } from '../contract/diff/diffContracts.js';
import { loadContract } from '../contract/loadContract.js';
import { displayPath } from '../io/displayPath.js';
import { writeReportFilesAtomically, type ReadFile } from '../io/writeReportAtomically.js';
import { documentName } from '../workflow/judgement.js';
import { parseCommandLine } from './commandLine.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import { optionHelpLine } from './settingsHelp.js';
import type { CommandContext } from './summariseCommand.js';

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What `contract-diff` writes: the two documents, how many changes of each level, and the changes. */
export interface ContractDiffFile {
  readonly base: string;
  readonly head: string;
  readonly summary: Readonly<Record<ChangeLevel, number>>;
  readonly changes: readonly ContractChange[];
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

  const [basePath, headPath] = documents as [string, string];
  const base = await loadContract([basePath], context.fileSystem);
  const head = await loadContract([headPath], context.fileSystem);
  const changes = diffContracts(base, head);
  const cwd = process.cwd();
  const summary = Object.fromEntries(
    CHANGE_LEVELS.map((level) => [level, changes.filter((change) => change.level === level).length]),
  ) as Record<ChangeLevel, number>;
  const file: ContractDiffFile = { base: documentName(basePath, cwd), head: documentName(headPath, cwd), summary, changes };
  const reads: ReadFile[] = [...new Set([...(base.files ?? [basePath]), ...(head.files ?? [headPath])])].map((path) => ({
    path,
    what: 'OpenAPI document',
  }));
  await writeReportFilesAtomically(
    context.fileSystem,
    [{ path: output, content: `${JSON.stringify(file, null, 2)}\n`, role: 'contract changes file' }],
    reads,
  );
  context.stdout.write(`${context.programName} contract-diff: ${summaryLine(summary)}; written to ${displayPath(output, cwd)}\n`);
  return EXIT_CODES.success;
}

/** `3 breaking changes, 1 warning, 2 info`. */
export function summaryLine(summary: Readonly<Record<ChangeLevel, number>>): string {
  const { breaking, warning, info } = summary;
  return `${breaking} breaking change${breaking === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info`;
}

const CONTRACT_DIFF_HELP = `Usage: quality-evidence contract-diff <BASE_DOC> <HEAD_DOC> --output <file>

Lists every change between two OpenAPI documents (YAML or JSON; Swagger 2.0,
OpenAPI 3.0 or 3.1; $refs to local files brought in, nothing fetched) that
matters to a client, each with a rule id, a level (breaking, warning, info),
the operation it touches and JSON pointers into both documents, and writes
them as JSON: { base, head, summary: { breaking, warning, info }, changes }.
Operations are matched by method and path, the names of path parameters
aside; schemas are compared with their $refs followed and allOf merged.
Descriptions, examples and ordering are no change. The rules, each with an
example: docs/contract-diff.md.

Options:
${optionHelpLine('-o, --output <file>', 'where the JSON list of changes goes (required; never BASE_DOC or HEAD_DOC)')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  git show main:openapi.yaml > base.yaml
  npx quality-evidence contract-diff base.yaml openapi.yaml --output contract-changes.json

Exit codes: 0 the changes are written (breaking ones too: gate on them with
the file), 64 usage (not two documents, no --output), 65 a document past the
size limit or not UTF-8, 66 a document is missing or unreadable, 73 the file
cannot be written, 78 a document is no OpenAPI document this version reads.
`;
