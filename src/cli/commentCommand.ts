import { CommentPostError, ReportFormatError } from '../errors.js';
import { resolveSettings } from '../config/resolveSettings.js';
import type { SettingKey } from '../config/settings.js';
import { environmentSettings, flagSettings, presentValue } from '../config/settingsSources.js';
import { parseReport } from '../evaluation/parseReport.js';
import { displayPath } from '../io/displayPath.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { writeReportFilesAtomically, type ReadFile } from '../io/writeReportAtomically.js';
import { improvementCount, regressionCount, type ComparedReport } from '../report/comment/commentFindings.js';
import { renderComment, type RenderedComment } from '../report/comment/renderComment.js';
import { escapeControlCharacters } from '../renderValue.js';
import {
  artifactsUrlOf,
  commentTargetOf,
  parseGitHubEvent,
  positiveInteger,
  tokenVariableOf,
  type GitHubEvent,
} from '../review/commentTarget.js';
import { parseCommandLine } from './commandLine.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import { settingFlagOptions, settingsBut, settingVariables } from './commandSettings.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import type { CommandContext } from './summariseCommand.js';

/** The settings comment takes from the table, flag and variable alike: the link of a trace (QE_TRACE_URL_TEMPLATE). */
const COMMENT_SETTING_KEYS: readonly SettingKey[] = ['traceUrlTemplate'];

const OPTIONS = {
  ...settingFlagOptions(COMMENT_SETTING_KEYS),
  output: { type: 'string', short: 'o' },
  post: { type: 'boolean' },
  'pull-request': { type: 'string' },
  environment: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `quality-evidence comment <report.json> --output comment.md [--post]`:
 * writes the pull-request comment of a report that holds a comparison with
 * its base, and with `--post` creates or updates it on the pull request
 * (GitHub) or merge request (GitLab). A post that fails is a warning and
 * exit 69: the comment's file is written either way.
 */
export async function commentCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} comment --help`,
  );
  if (flags.help === true) {
    context.stdout.write(COMMENT_HELP);
    return EXIT_CODES.success;
  }
  if (positionals.length !== 1)
    throw new UsageError(`comment takes one report file (got ${positionals.length}); see ${context.programName} comment --help`);
  const output = flags.output?.trim();
  if (output === undefined || output === '')
    throw new UsageError(`comment needs --output <file>, where the comment's Markdown goes; see ${context.programName} comment --help`);
  const pullRequest = flags['pull-request'] === undefined ? undefined : positiveInteger(flags['pull-request']);
  if (flags['pull-request'] !== undefined && pullRequest === undefined)
    throw new UsageError(
      `--pull-request must be a pull request's number, a whole number from 1; see ${context.programName} comment --help`,
    );
  const environment = flags.environment?.trim();
  if (environment === '') throw new UsageError(`--environment must not be empty; see ${context.programName} comment --help`);

  // Checked before any file is read: a bad template is a configuration error (78) naming its flag or variable, never its value.
  const { traceUrlTemplate } = resolveSettings(
    [flagSettings(flags), environmentSettings(settingVariables(context.env, COMMENT_SETTING_KEYS))],
    {
      ignored: settingsBut(COMMENT_SETTING_KEYS),
    },
  );
  const reportPath = positionals[0]!;
  const report = parseReport(await readInputFile(context.fileSystem, reportPath, 'report', REPORT_FILE_LIMIT_BYTES), reportPath, 'report');
  if (report.baseline === undefined)
    throw new ReportFormatError(
      reportPath,
      'holds no comparison with a base (no `baseline` section): make it with --baseline or --baseline-from-history, or with compare',
      'report',
    );
  const eventPath = presentValue(context.env['GITHUB_EVENT_PATH']);
  const event = await readEvent(context, eventPath);
  const comment = renderComment(report as ComparedReport, {
    environment: environment ?? report.environment,
    artifactsUrl: artifactsUrlOf(context.env, event.event),
    traceUrlTemplate,
  });
  const reads: ReadFile[] = [
    { path: reportPath, what: 'report' },
    ...(eventPath === undefined ? [] : [{ path: eventPath, what: 'event payload (GITHUB_EVENT_PATH)', named: false }]),
  ];
  await writeReportFilesAtomically(context.fileSystem, [{ path: output, content: comment.body, role: 'comment file' }], reads);
  context.stdout.write(`${context.programName} comment: ${describeComment(comment)}; written to ${displayPath(output, process.cwd())}\n`);
  if (flags.post !== true) return EXIT_CODES.success;
  try {
    context.stdout.write(`${context.programName} comment: ${await post(context, comment, event, pullRequest)}\n`);
    return EXIT_CODES.success;
  } catch (error) {
    if (!(error instanceof CommentPostError)) throw error;
    context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(error.message)}\n`);
    return EXIT_CODES.commentNotPosted;
  }
}

/** GitHub's event payload, where GITHUB_EVENT_PATH names one; why it cannot be read, for a post that needs it. */
async function readEvent(
  context: CommandContext,
  eventPath: string | undefined,
): Promise<{ readonly event?: GitHubEvent | undefined; readonly problem?: string | undefined }> {
  if (eventPath === undefined) return {};
  // The path is a variable's value: a message names the variable, never the path.
  let text: string;
  try {
    text = await readInputFile(context.fileSystem, eventPath, 'event payload', CONFIGURATION_FILE_LIMIT_BYTES);
  } catch {
    return { problem: 'the event payload GITHUB_EVENT_PATH names cannot be read' };
  }
  const event = parseGitHubEvent(text);
  return event === undefined ? { problem: 'the event payload GITHUB_EVENT_PATH names is not a JSON object' } : { event };
}

/** Posts the comment (the poster is loaded only here) and says what it did; a CommentPostError when it could not. */
async function post(
  context: CommandContext,
  comment: RenderedComment,
  { event, problem }: { readonly event?: GitHubEvent | undefined; readonly problem?: string | undefined },
  pullRequest: number | undefined,
): Promise<string> {
  const found = commentTargetOf(context.env, event, pullRequest);
  if ('problem' in found) throw new CommentPostError(problem === undefined ? found.problem : `${found.problem} (${problem})`);
  const { postComment } = await import('../review/postComment.js');
  const token = presentValue(context.env[tokenVariableOf(found.target.platform)]);
  const outcome = await postComment({ target: found.target, token, comment });
  if (outcome.action === 'none') return `nothing to report and no earlier comment on ${outcome.where}: none was created`;
  return `comment ${outcome.action} on ${outcome.where}${outcome.url === undefined ? '' : ` (${outcome.url})`}`;
}

// `2 regressions, 1 improvement, 14 that held`, or `nothing to report (14 endpoints held)`.
function describeComment(comment: RenderedComment): string {
  const { held } = comment.findings;
  const regressions = regressionCount(comment.findings);
  const improvements = improvementCount(comment.findings);
  const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? '' : 's'}`;
  const left = comment.leftOut === 0 ? '' : `, ${comment.leftOut} left out to fit`;
  if (comment.nothingToReport) return `nothing to report (${count(held.length, 'endpoint')} held${left})`;
  return `${count(regressions, 'regression')}, ${count(improvements, 'improvement')}, ${held.length} held${left}`;
}

const COMMENT_HELP = `Usage: quality-evidence comment <report.json> --output <comment.md> [--post]

Writes the pull-request comment of a report that holds a comparison with its
base (made with --baseline or --baseline-from-history): the headline, the
regressions first (slower, newly failing, failing more, with the tests
behind them; new statuses, newly flaky; the contract's new undeclared
statuses, more bodies off their schema, operations no longer exercised,
conditions no longer met), then the improvements, then what held, folded; a link to the run's
artifacts where CI names them. It stays within GitHub's 65,536 characters
and says what it left out. Its first line is a hidden marker,
<!-- quality-evidence:ENVIRONMENT -->, that finds it again.

Options:
${optionHelpLine('-o, --output <file>', "where the comment's Markdown goes (required)")}
${optionHelpLine(
  '--post',
  'create or update the comment on the pull request (GitHub: GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL, ' +
    'GITHUB_EVENT_PATH) or merge request (GitLab: CI_PROJECT_ID, CI_API_V4_URL, CI_MERGE_REQUEST_IID, GITLAB_TOKEN): ' +
    'one comment per environment, edited on each push; with nothing to report, an earlier comment is updated and none is created',
)}
${optionHelpLine(
  '--pull-request <n>',
  "the pull request's number, where the event does not name it (a workflow_run job of a pull request from a fork)",
)}
${optionHelpLine('--environment <name>', "the environment the marker names (default: the report's)")}
${settingHelpLines(COMMENT_SETTING_KEYS)}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx quality-evidence comment out/quality-summary.json --output out/comment.md
  npx quality-evidence comment out/quality-summary.json --output out/comment.md --post

Exit codes: 0 written (and posted, with --post), 64 usage, 65 not a report
or one with no baseline section, 66 the report is missing, 69 the comment
was written and not posted (a warning says why), 73 the comment cannot be
written, 78 a --trace-url-template or QE_TRACE_URL_TEMPLATE that is not an
http or https URL with {traceId}.
`;
