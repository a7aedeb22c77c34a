import { PACKAGE_VERSION } from '../packageVersion.js';
import { EXIT_CODES } from './exitCodes.js';
import { summariseCommand, type CommandContext } from './summariseCommand.js';
import { isSubcommandName, type SubcommandName } from './subcommandNames.js';

type Subcommand = (context: CommandContext) => Promise<number>;

/**
 * The subcommands besides the default one, by name; each returns its exit code. Each is loaded when it is
 * asked for: a run of the default command never loads the comment's, the drafted tests', the contract diff's
 * or the history page's code (docs/architecture.md, "What a run loads").
 */
const SUBCOMMANDS: Readonly<Record<SubcommandName, () => Promise<Subcommand>>> = {
  check: async () => (await import('./checkCommand.js')).checkCommand,
  merge: async () => (await import('./mergeCommand.js')).mergeCommand,
  compare: async () => (await import('./compareCommand.js')).compareCommand,
  comment: async () => (await import('./commentCommand.js')).commentCommand,
  suggest: async () => (await import('./suggestCommand.js')).suggestCommand,
  'contract-diff': async () => (await import('./contractDiffCommand.js')).contractDiffCommand,
  affected: async () => (await import('./affectedCommand.js')).affectedCommand,
  dashboard: async () => (await import('./dashboardCommand.js')).dashboardCommand,
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
  // Own names only: an input file named `constructor` or `toString` is an input, not a property of every object.
  const subcommand = isSubcommandName(first) ? SUBCOMMANDS[first] : undefined;
  if (subcommand !== undefined) return (await subcommand())({ ...context, args: rest });
  return summariseCommand(context);
}
