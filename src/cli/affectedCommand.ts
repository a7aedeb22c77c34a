import type { Contract } from '../contract/contract.js';
import { loadContract } from '../contract/loadContract.js';
import { AFFECTED_FORMATS, affectedTests, formatAffectedTests, type AffectedFormat } from '../contract/diff/affectedTests.js';
import type { ContractChange } from '../contract/diff/contractChange.js';
import { diffContracts } from '../contract/diff/diffContracts.js';
import { escapeControlCharacters, quoteText } from '../renderValue.js';
import { basePathsIn } from '../evaluation/contractChanges.js';
import { readChangeEvidence } from './changeEvidenceFiles.js';
import { parseCommandLine } from './commandLine.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import { optionHelpLine } from './settingsHelp.js';
import type { CommandContext } from './summariseCommand.js';

const OPTIONS = {
  report: { type: 'string' },
  history: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** How the changes between two contracts are found: `diffContracts`, or a stand-in in specs. */
export type FindChanges = (base: Contract, head: Contract) => readonly ContractChange[];

/**
 * `quality-evidence affected BASE_DOC HEAD_DOC --report FILE | --history FILE
 * [--format files|grep|json]`: the tests whose recorded calls reach an
 * operation the change from BASE_DOC to HEAD_DOC touches
 * (docs/contract-diff.md#the-tests-to-run-affected). Prints them on stdout; names on stderr every
 * changed operation no test calls, or whose tests the evidence cannot name.
 */
export async function affectedCommand(context: CommandContext, findChanges: FindChanges = diffContracts): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} affected --help`,
  );
  if (flags.help === true) {
    context.stdout.write(AFFECTED_HELP);
    return EXIT_CODES.success;
  }
  const help = `see ${context.programName} affected --help`;
  if (positionals.length !== 2 || positionals.some((path) => path.trim() === ''))
    throw new UsageError(`affected takes two OpenAPI documents, BASE and HEAD (got ${positionals.length}); ${help}`);
  const reportPath = flags.report?.trim();
  const historyPath = flags.history?.trim();
  if ((reportPath === undefined || reportPath === '') === (historyPath === undefined || historyPath === ''))
    throw new UsageError(`affected needs the evidence: one of --report <file> or --history <file>; ${help}`);
  const format = formatOf(flags.format, help);

  const [basePath, headPath] = positionals.map((path) => path.trim()) as [string, string];
  const { index } = await readChangeEvidence(context, 'affected', reportPath, historyPath);
  const base = await loadContract([basePath], context.fileSystem);
  const head = await loadContract([headPath], context.fileSystem);
  const output = formatAffectedTests(affectedTests(findChanges(base, head), index, basePathsIn(head, base)), index, format);
  context.stdout.write(output.text);
  for (const note of output.notes) context.stderr.write(`${context.programName}: ${escapeControlCharacters(note)}\n`);
  return EXIT_CODES.success;
}

function formatOf(text: string | undefined, help: string): AffectedFormat {
  if (text === undefined) return 'files';
  const format = AFFECTED_FORMATS.find((name) => name === text.trim());
  if (format === undefined)
    throw new UsageError(`--format must be one of ${AFFECTED_FORMATS.join(', ')} (got ${quoteText(text, 40)}); ${help}`);
  return format;
}

const AFFECTED_HELP = `Usage: quality-evidence affected <base.yaml> <head.yaml> (--report <file> | --history <file>) [--format files|grep|json]

Prints the tests whose recorded calls reach an operation that changes from
the BASE OpenAPI document to HEAD (docs/contract-diff.md#the-tests-to-run-affected): a change to a
shared component reaches every operation using it. The evidence is a
report of the Playwright reporter (its tests per endpoint), or a history
file (its runs' calls, and tests where its lines name them). Every changed
operation no test calls is named on stderr as untested, and so is one
whose tests the evidence cannot name all of. Nothing is printed when no
test is affected: check for that before handing the output to Playwright,
which runs every test when given none.

Options:
${optionHelpLine('--report <file>', 'a report (quality-summary.json) of a run of the suite')}
${optionHelpLine('--history <file>', 'a history file (historyPath): its runs’ calls added up')}
${optionHelpLine('--format <format>', 'files (default): spec files, one a line; grep: a --grep pattern of the tests’ titles; json: the join')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx playwright test $(npx quality-evidence affected main.yaml openapi.yaml --report out/quality-summary.json)
  npx playwright test --grep "$(npx quality-evidence affected main.yaml openapi.yaml --report out/quality-summary.json --format grep)"

Exit codes: 0 printed (or nothing affected), 64 usage, 65 a report that is
not one of this version, a history file of a newer version, or a file past
the limit, 66 a document, the report or the history file is missing, 78 a
document that is not OpenAPI.
`;
