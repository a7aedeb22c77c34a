import { PACKAGE_VERSION } from '../packageVersion.js';
import { affectedCommand } from './affectedCommand.js';
import { checkCommand } from './checkCommand.js';
import { commentCommand } from './commentCommand.js';
import { compareCommand } from './compareCommand.js';
import { contractDiffCommand } from './contractDiffCommand.js';
import { dashboardCommand } from './dashboardCommand.js';
import { mergeCommand } from './mergeCommand.js';
import { suggestCommand } from './suggestCommand.js';
import { EXIT_CODES } from './exitCodes.js';
import { summariseCommand, type CommandContext } from './summariseCommand.js';

/** The subcommands besides the default one, by name; each returns its exit code. */
const SUBCOMMANDS: Readonly<Record<string, (context: CommandContext) => Promise<number>>> = {
  check: checkCommand,
  merge: mergeCommand,
  compare: compareCommand,
  comment: commentCommand,
  suggest: suggestCommand,
  'contract-diff': contractDiffCommand,
  affected: affectedCommand,
  dashboard: dashboardCommand,
};

/**
 * Dispatches the command line: `--version`, a named subcommand, or the
 * default one (summarise the inputs). Subcommands live one per file.
 */
export async function runCommand(context: CommandContext): Promise<number> {
  const [first, ...rest] = context.args;
  if (first === '--version') {
    context.stdout.write(`${PACKAGE_VERSION}\n`);
    return EXIT_CODES.success;
  }
  const subcommand = first === undefined ? undefined : SUBCOMMANDS[first];
  if (subcommand !== undefined) return subcommand({ ...context, args: rest });
  return summariseCommand(context);
}
