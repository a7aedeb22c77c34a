import { presentValue } from '../config/settingsSources.js';
import { displayPath } from '../io/displayPath.js';
import { writeFileTo } from '../io/textPieces.js';
import type { QualityReport } from '../report/qualityReport.js';
import { renderTerminal } from '../report/renderers/terminal.js';
import type { CommandContext } from './summariseCommand.js';

/**
 * What a subcommand that wrote a report prints: on a terminal the short
 * summary naming the files; to a pipe, a file or a CI log (or with --json)
 * the JSON report itself, its own bytes read back from the file written (the
 * text is never held whole); nothing when quiet, unless --json asks.
 */
export async function printPublished(
  context: CommandContext,
  { report, files }: { readonly report: QualityReport; readonly files: readonly string[] },
  { json, quiet }: { readonly json: boolean; readonly quiet: boolean },
): Promise<void> {
  if (json || (context.stdout.isTTY !== true && !quiet)) await writeFileTo(context.stdout, context.fileSystem, files[0]!);
  else if (!quiet) {
    const shown = files.map((file) => displayPath(file, process.cwd()));
    context.stdout.write(renderTerminal(report, { files: shown, color: presentValue(context.env['NO_COLOR']) === undefined }));
  }
}
