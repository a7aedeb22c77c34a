/**
 * The subcommands besides the default one. runCommand.ts dispatches them (its
 * table names exactly these); main.ts reads the name before it loads the
 * rest of the program, to start worker threads for the default command only.
 */
export const SUBCOMMAND_NAMES = ['check', 'merge', 'compare', 'comment', 'suggest', 'contract-diff', 'affected', 'dashboard'] as const;

export type SubcommandName = (typeof SUBCOMMAND_NAMES)[number];

/** Whether `name` names a subcommand (an own name: not `constructor` or `toString`). */
export function isSubcommandName(name: string | undefined): name is SubcommandName {
  return (SUBCOMMAND_NAMES as readonly (string | undefined)[]).includes(name);
}
