import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exitCodes.js';

/**
 * Parses a subcommand's arguments with Node's `util.parseArgs`; anything it
 * refuses is a UsageError (64) that names the problem and points to `help`.
 */
export function parseCommandLine<Config extends ParseArgsConfig>(config: Config, help: string): ReturnType<typeof parseArgs<Config>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error);
    throw new UsageError(`${reason}; see ${help}`);
  }
}
