import { readFileSync } from 'node:fs';
import { checkCommand } from './checkCommand.js';
import { mergeCommand } from './mergeCommand.js';
import { EXIT_CODES } from './exitCodes.js';
import { summariseCommand, type CommandContext } from './summariseCommand.js';

/** The subcommands besides the default one, by name; each returns its exit code. */
const SUBCOMMANDS: Readonly<Record<string, (context: CommandContext) => Promise<number>>> = { check: checkCommand, merge: mergeCommand };

/**
 * Dispatches the command line: `--version`, a named subcommand, or the
 * default one (summarise the inputs). Subcommands live one per file.
 */
export async function runCommand(context: CommandContext): Promise<number> {
  const [first, ...rest] = context.args;
  if (first === '--version') {
    context.stdout.write(`${packageVersion()}\n`);
    return EXIT_CODES.success;
  }
  const subcommand = first === undefined ? undefined : SUBCOMMANDS[first];
  if (subcommand !== undefined) return subcommand({ ...context, args: rest });
  return summariseCommand(context);
}

function packageVersion(): string {
  // The package.json of this package, three folders up from the command's .build/src/cli.
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
    return manifest.name === 'quality-evidence' && typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
