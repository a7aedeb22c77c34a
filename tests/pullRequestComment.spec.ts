import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { createBodyChecker } from '../src/contract/bodyConformance.js';
import { loadContract } from '../src/contract/loadContract.js';
import { createOperationMatcher } from '../src/labels/operationIndex.js';
import { formatReport } from '../src/index.js';
import { commentTargetOf } from '../src/review/commentTarget.js';
import { apiCalls, compared, reportOf } from './support/comparedReports.js';
import {
  HEAD_SHA,
  peopleComments,
  startGitHub,
  startGitLab,
  type CommentServer,
  type HeldComment,
  type ReceivedRequest,
} from './support/commentServers.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot, runProgram, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence comment --post` against local stand-ins of GitHub's issue
// comments and GitLab's merge-request notes (tests/support/commentServers.ts).
// Every request sent to the GitHub stand-in is checked against GitHub's own
// OpenAPI description (fixtures/openapi/github-ghec.json.gz) by the package's
// contract conformance: its method and path are an operation, and its body
// matches that operation's request schema.

const TOKEN = 'qe-planted-comment-token-5b2d1f';
const MARKER = '<!-- quality-evidence:staging -->';

/** Why a request is not one GitHub's REST API describes; undefined when it is. */
let nonConformity: (request: ReceivedRequest) => string | undefined;

test.beforeAll(async () => {
  // GitHub's whole description, 10 MB of JSON, loaded and matched: seconds on a busy machine.
  test.setTimeout(180_000);
  const text = gunzipSync(readFileSync(join(repositoryRoot, 'fixtures/openapi/github-ghec.json.gz'))).toString('utf8');
  const contract = await loadContract(['/ghec.json'], new MemoryFileSystem({ '/ghec.json': text }));
  const match = createOperationMatcher(contract.operations);
  const checker = await createBodyChecker(contract);
  nonConformity = (request) => {
    const index = match(request.method, request.path);
    if (index === undefined) return `${request.method} ${request.path} is no operation of GitHub's REST API`;
    const operation = contract.operations[index]!;
    if (request.method === 'GET') return request.body === '' ? undefined : `${operation.label}: a GET with a body`;
    const outcome = checker.checkRequest(operation, request.headers['content-type'], { text: request.body });
    return outcome?.validated === true && outcome.violationCount === 0 ? undefined : `${operation.label}: ${JSON.stringify(outcome)}`;
  };
});

/** Every request the stand-in got, checked against GitHub's description: the problems (none, when all conform). */
function problemsOf(server: CommentServer): string[] {
  expect(server.requests.length).toBeGreaterThan(0);
  return server.requests.flatMap((request) => nonConformity(request) ?? []);
}

/** A folder holding `report.json` (a report with a baseline section) and a pull_request event for pull request 7. */
async function folderWith(report: ReturnType<typeof compared>, event: unknown = { pull_request: { number: 7 } }): Promise<string> {
  return createTemporaryFolder({ 'report.json': formatReport(report), 'event.json': JSON.stringify(event) }, 'comment');
}

const slower = (slowdown: number, failing = 0) => compared(reportOf(apiCalls({ slowdown, failing })), reportOf(apiCalls()));
const same = () => compared(reportOf(apiCalls()), reportOf(apiCalls()));

function gitHubEnvironment(folder: string, server: CommentServer, env: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_REPOSITORY: 'owner/repo',
    GITHUB_API_URL: server.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_EVENT_PATH: join(folder, 'event.json'),
    GITHUB_TOKEN: TOKEN,
    ...env,
  };
}

function comment(folder: string, env: Record<string, string>, more: string[] = []): Promise<ProgramOutcome> {
  return runProgram('src/cli/main.js', { args: ['comment', 'report.json', '--output', 'comment.md', '--post', ...more], env, cwd: folder });
}

function warningLines(outcome: ProgramOutcome): string[] {
  return outcome.stderr.split('\n').filter((line) => line !== '');
}

test.describe('GitHub', () => {
  let server: CommentServer;
  test.afterEach(async () => server.close());

  test('three posts leave exactly one comment on the pull request, holding the last run’s numbers', async () => {
    server = await startGitHub({ 7: peopleComments(2) });
    const outcomes: ProgramOutcome[] = [];
    let folder = '';
    for (const slowdown of [1.3, 1.6, 2]) {
      folder = await folderWith(slower(slowdown, 3));
      outcomes.push(await comment(folder, gitHubEnvironment(folder, server)));
    }
    expect(outcomes.map((outcome) => [outcome.exitCode, outcome.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ]);
    expect(outcomes.map((outcome) => /comment (created|updated) on pull request #7/.exec(outcome.stdout)?.[1])).toEqual([
      'created',
      'updated',
      'updated',
    ]);
    const thread = server.threads.get(7)!;
    expect(thread.filter((held) => held.body.startsWith(MARKER))).toEqual([
      { id: 1002, body: await readFile(join(folder, 'comment.md'), 'utf8'), author: 'github-actions[bot]' },
    ]);
    expect(thread.filter((held) => !held.body.startsWith(MARKER))).toEqual(peopleComments(2));
    expect(problemsOf(server)).toEqual([]);
  });

  test('a marker comment on the second page of 150 comments is found and edited in place; the other 149 are untouched', async () => {
    const people = peopleComments(150);
    const ours: HeldComment = { id: people[120]!.id, body: `${MARKER}\nthe numbers of an earlier push`, author: 'github-actions[bot]' };
    server = await startGitHub({ 7: people.map((held, index) => (index === 120 ? ours : { ...held })) });
    const folder = await folderWith(slower(1.5));
    const outcome = await comment(folder, gitHubEnvironment(folder, server));
    expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
    expect(server.requests.map((request) => `${request.method} ${request.path}?${request.query.toString()}`)).toEqual([
      'GET /repos/owner/repo/issues/7/comments?per_page=100',
      'GET /repos/owner/repo/issues/7/comments?per_page=100&page=2',
      `PATCH /repos/owner/repo/issues/comments/${ours.id}?`,
    ]);
    const thread = server.threads.get(7)!;
    expect(thread).toHaveLength(150);
    expect(thread[120]!.body).toBe(await readFile(join(folder, 'comment.md'), 'utf8'));
    expect(thread.filter((_, index) => index !== 120)).toEqual(people.filter((_, index) => index !== 120));
    expect(problemsOf(server)).toEqual([]);
  });

  test('the token appears in no output: not on stdout or stderr, nor in the comment file, even where the server echoes it', async () => {
    server = await startGitHub();
    const folder = await folderWith(slower(1.5));
    const posted = await comment(folder, gitHubEnvironment(folder, server));
    server.refuseWith = { status: 401, message: `Bad credentials: ${TOKEN}` };
    const refused = await comment(folder, gitHubEnvironment(folder, server));
    expect([posted.exitCode, refused.exitCode]).toEqual([0, 69]);
    expect(refused.stderr).toContain('Bad credentials: ***');
    const written = await readFile(join(folder, 'comment.md'), 'utf8');
    for (const text of [posted.stdout, posted.stderr, refused.stdout, refused.stderr, written]) expect(text).not.toContain(TOKEN);
    // Sent only where it belongs: the Authorization header.
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.body).not.toContain(TOKEN);
    }
  });

  for (const { status, message, advice } of [
    {
      status: 403,
      message: 'Resource not accessible by integration',
      advice: 'a pull request from a fork gets a read-only token: post from a workflow_run job',
    },
    { status: 404, message: 'Not Found', advice: 'no such repository or pull request for this token' },
  ]) {
    test(`a ${status} is one warning naming what to do, exit 69, and the comment file is written`, async () => {
      server = await startGitHub();
      server.refuseWith = { status, message };
      const folder = await folderWith(slower(1.5));
      const outcome = await comment(folder, gitHubEnvironment(folder, server));
      expect(outcome.exitCode).toBe(69);
      const lines = warningLines(outcome);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`quality-evidence: warning: the comment was not posted: listing the comments: GitHub answered ${status}`);
      expect(lines[0]).toContain(advice);
      expect((await readFile(join(folder, 'comment.md'), 'utf8')).startsWith(`${MARKER}\n`)).toBe(true);
      expect(JSON.parse(await readFile(join(folder, 'report.json'), 'utf8'))).toEqual(JSON.parse(formatReport(slower(1.5))));
    });
  }

  test('with no token nothing is sent: one warning naming GITHUB_TOKEN, exit 69, the comment file written', async () => {
    server = await startGitHub();
    const folder = await folderWith(slower(1.5));
    const outcome = await comment(folder, gitHubEnvironment(folder, server, { GITHUB_TOKEN: '' }));
    expect(outcome.exitCode).toBe(69);
    expect(warningLines(outcome)).toEqual([expect.stringContaining('the comment was not posted: GITHUB_TOKEN is not set')]);
    expect(server.requests).toEqual([]);
    expect(await readFile(join(folder, 'comment.md'), 'utf8')).toContain(MARKER);
  });

  test('a server that cannot be reached is one warning naming GITHUB_API_URL, never its value, exit 69', async () => {
    server = await startGitHub();
    await server.close();
    const folder = await folderWith(slower(1.5));
    const outcome = await comment(folder, gitHubEnvironment(folder, server));
    expect(outcome.exitCode).toBe(69);
    expect(warningLines(outcome)).toEqual([
      'quality-evidence: warning: the comment was not posted: listing the comments: GitHub could not be reached at GITHUB_API_URL (ECONNREFUSED)',
    ]);
    expect(outcome.stderr).not.toContain('127.0.0.1');
  });

  test('a run with nothing to report creates no comment', async () => {
    server = await startGitHub({ 7: peopleComments(3) });
    const folder = await folderWith(same());
    const outcome = await comment(folder, gitHubEnvironment(folder, server));
    expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
    expect(outcome.stdout).toContain('nothing to report and no earlier comment on pull request #7: none was created');
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
    expect(server.threads.get(7)).toEqual(peopleComments(3));
    expect(problemsOf(server)).toEqual([]);
  });

  test('a run with nothing to report updates the earlier comment to say so', async () => {
    server = await startGitHub({
      7: [...peopleComments(1), { id: 5, body: `${MARKER}\n2 endpoints slower`, author: 'github-actions[bot]' }],
    });
    const folder = await folderWith(same());
    const outcome = await comment(folder, gitHubEnvironment(folder, server));
    expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
    const body = server.threads.get(7)![1]!.body;
    expect(body).toBe(await readFile(join(folder, 'comment.md'), 'utf8'));
    expect(body).toContain('Nothing to report');
    expect(problemsOf(server)).toEqual([]);
  });

  test('a number handed over by the tested run is refused when the pull request is not at the commit the tests ran on', async () => {
    server = await startGitHub();
    const event = { workflow_run: { id: 77, head_sha: 'b'.repeat(40), pull_requests: [] } };
    const folder = await folderWith(slower(1.5), event);
    const outcome = await comment(folder, gitHubEnvironment(folder, server), ['--pull-request', '7']);
    expect(outcome.exitCode).toBe(69);
    expect(warningLines(outcome)).toEqual([expect.stringContaining('pull request #7 is not at the commit the tests ran on')]);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /repos/owner/repo/pulls/7']);
    expect(problemsOf(server)).toEqual([]);
  });

  test('a workflow_run job posts on the pull request it was handed when it is at the tested commit, linking the tested run', async () => {
    server = await startGitHub();
    const event = { workflow_run: { id: 77, head_sha: HEAD_SHA, pull_requests: [] } };
    const folder = await folderWith(slower(1.5), event);
    const outcome = await comment(folder, gitHubEnvironment(folder, server), ['--pull-request', '7']);
    expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
    expect(server.threads.get(7)![0]!.body).toContain("among [the run's artifacts](https://github.example/owner/repo/actions/runs/77)");
    expect(problemsOf(server)).toEqual([]);
  });
});

test.describe('GitLab', () => {
  let server: CommentServer;
  test.afterEach(async () => server.close());

  test('the first post creates one note and the next updates it, found past the first page of notes', async () => {
    server = await startGitLab({ 3: peopleComments(130) });
    const env = () => ({
      CI_PROJECT_ID: '42',
      CI_API_V4_URL: server.url,
      CI_MERGE_REQUEST_IID: '3',
      CI_JOB_URL: 'https://gitlab.example/group/project/-/jobs/9',
      GITLAB_TOKEN: TOKEN,
    });
    const first = await folderWith(slower(1.5));
    const created = await comment(first, env());
    const second = await folderWith(slower(2, 4));
    const updated = await comment(second, env());
    expect([created.exitCode, created.stderr, updated.exitCode, updated.stderr]).toEqual([0, '', 0, '']);
    expect([created.stdout, updated.stdout].map((stdout) => /comment (created|updated) on merge request !3/.exec(stdout)?.[1])).toEqual([
      'created',
      'updated',
    ]);
    const notes = server.threads.get(3)!;
    expect(notes).toHaveLength(131);
    expect(notes.slice(0, 130)).toEqual(peopleComments(130));
    expect(notes[130]!.body).toBe(await readFile(join(second, 'comment.md'), 'utf8'));
    expect(notes[130]!.body).toContain("[the run's artifacts](https://gitlab.example/group/project/-/jobs/9)");
    expect(server.requests.map((request) => `${request.method} ${request.query.get('page') ?? ''}`)).toEqual([
      'GET 1',
      'GET 2',
      'POST ',
      'GET 1',
      'GET 2',
      'PUT ',
    ]);
    for (const request of server.requests) expect(request.headers['private-token']).toBe(TOKEN);
  });
});

test('--post outside GitHub Actions and GitLab CI is one warning, exit 69, and the comment file is written', async () => {
  const folder = await folderWith(slower(1.5));
  const outcome = await comment(folder, {});
  expect(outcome.exitCode).toBe(69);
  expect(warningLines(outcome)).toEqual([
    'quality-evidence: warning: the comment was not posted: neither GitHub Actions (GITHUB_REPOSITORY) nor GitLab ' +
      'CI (CI_PROJECT_ID) is in the environment; --post works inside their jobs',
  ]);
  expect(await readFile(join(folder, 'comment.md'), 'utf8')).toContain(MARKER);
});

test('a report without a baseline section is refused (65), naming how to make one, and nothing is written', async () => {
  const folder = await createTemporaryFolder({ 'report.json': formatReport(reportOf(apiCalls())) }, 'comment');
  const outcome = await runProgram('src/cli/main.js', { args: ['comment', 'report.json', '--output', 'comment.md'], cwd: folder });
  expect(outcome.exitCode).toBe(65);
  expect(outcome.stderr).toBe(
    'quality-evidence: the report "report.json" holds no comparison with a base (no `baseline` section): make it ' +
      'with --baseline or --baseline-from-history, or with compare\n',
  );
  await expect(readFile(join(folder, 'comment.md'), 'utf8')).rejects.toThrow('ENOENT');
});

test('the comment is never written over the report it is made from (73)', async () => {
  const folder = await folderWith(slower(1.5));
  const before = await readFile(join(folder, 'report.json'), 'utf8');
  const outcome = await runProgram('src/cli/main.js', { args: ['comment', 'report.json', '--output', 'report.json'], cwd: folder });
  expect(outcome.exitCode).toBe(73);
  expect(outcome.stderr).toContain('the comment file is the report "report.json", which this run reads');
  expect(await readFile(join(folder, 'report.json'), 'utf8')).toBe(before);
});

test('the conformance check refuses a request GitHub does not describe, and a body off its schema', () => {
  const request = (method: string, path: string, body = '') => ({
    method,
    path,
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(nonConformity(request('PATCH', '/repos/owner/repo/issues/comments/5', '{"body":"x"}'))).toBeUndefined();
  expect(nonConformity(request('PATCH', '/repos/owner/repo/issues/5/comments', '{"body":"x"}'))).toBe(
    "PATCH /repos/owner/repo/issues/5/comments is no operation of GitHub's REST API",
  );
  expect(nonConformity(request('POST', '/repos/owner/repo/issues/5/comments', '{"text":"x"}'))).toContain('"keyword":"required"');
});

test.describe('the GitHub Action (action.yml)', () => {
  const action = parseYaml(readFileSync(join(repositoryRoot, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: { using: string; steps: { run: string; shell: string; env: Record<string, string> }[] };
  };
  let server: CommentServer;
  test.afterEach(async () => server.close());

  /**
   * Runs the action's one step as GitHub would: each `${{ inputs.x }}` of its
   * env given (or its default), `${{ github.token }}` the job's token, and
   * `npx --no quality-evidence` the built command (the installed package).
   */
  async function runAction(folder: string, inputs: Record<string, string>): Promise<ProgramOutcome> {
    expect(action.runs.using).toBe('composite');
    const [step] = action.runs.steps;
    const bin = await createTemporaryFolder({}, 'action-bin');
    const command = join(repositoryRoot, '.build', 'src', 'cli', 'main.js');
    const npx = `#!/bin/sh\nif [ "$1" = --no ] && [ "$2" = quality-evidence ]; then shift 2; exec '${process.execPath}' '${command}' "$@"; fi\nexit 127\n`;
    await writeFile(join(bin, 'npx'), npx, { mode: 0o755 });
    const value = (expression: string) =>
      expression.replace(/\$\{\{ inputs\.([\w-]+) \}\}/g, (_, name: string) =>
        (inputs[name] ?? action.inputs[name]?.default ?? '').replace('${{ github.token }}', TOKEN),
      );
    const env = Object.fromEntries(Object.entries(step!.env).map(([name, expression]) => [name, value(expression)]));
    return new Promise((done) => {
      execFile(
        'bash',
        // What GitHub runs a `shell: bash` step with.
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run],
        {
          cwd: folder,
          env: childEnvironment({ ...gitHubEnvironment(folder, server), ...env, PATH: `${bin}:${process.env['PATH'] ?? ''}` }),
        },
        (error, stdout, stderr) => {
          done({ exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        },
      );
    });
  }

  test('its step writes and posts the comment with the installed command, the job’s token by default', async () => {
    server = await startGitHub();
    const folder = await folderWith(slower(1.5));
    const outcome = await runAction(folder, { report: 'report.json', 'pull-request': '7' });
    expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
    const body = await readFile(join(folder, 'quality-evidence-comment.md'), 'utf8');
    expect(server.threads.get(7)?.map((held) => held.body)).toEqual([body]);
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  test('a comment that cannot be posted is a warning annotation and the step passes, unless fail-on-post-error is true (69)', async () => {
    server = await startGitHub();
    server.refuseWith = { status: 403, message: 'Resource not accessible by integration' };
    const folder = await folderWith(slower(1.5));
    const warned = await runAction(folder, { report: 'report.json', environment: 'eu west' });
    expect(warned.exitCode).toBe(0);
    expect(warned.stdout).toContain('::warning title=quality-evidence::The comment was written and not posted');
    expect(await readFile(join(folder, 'quality-evidence-comment.md'), 'utf8')).toMatch(/^<!-- quality-evidence:eu%20west -->\n/);
    const failed = await runAction(folder, { report: 'report.json', 'fail-on-post-error': 'true' });
    expect(failed.exitCode).toBe(69);
  });
});

test('comment --help prints its usage and exit codes, and the command’s help lists the subcommand', async () => {
  const help = await runProgram('src/cli/main.js', { args: ['comment', '--help'] });
  expect([help.exitCode, help.stderr]).toEqual([0, '']);
  expect(help.stdout).toContain('Usage: quality-evidence comment <report.json> --output <comment.md> [--post]');
  expect(help.stdout).toContain('69 the comment\nwas written and not posted');
  // Each option's text at column 39, as in every command's help, continued under itself past 150 columns.
  expect(help.stdout).toContain(
    "  --environment <name>                 the environment the marker names (default: the report's)\n" +
      '  --trace-url-template <url>           link each failed call to its trace: a URL with {traceId} (QE_TRACE_URL_TEMPLATE)\n' +
      '  -h, --help                           this help\n',
  );
  expect(help.stdout).toContain(`\n${' '.repeat(39)}GITHUB_EVENT_PATH) or merge request (GitLab:`);
  expect(help.stdout.split('\n').every((line) => line.length <= 150)).toBe(true);
  const main = await runProgram('src/cli/main.js', { args: ['--help'] });
  expect(main.stdout).toContain('  comment <report.json>                write (and --post) the pull-request comment');
});

test('with no pull request to comment on, the problem says whether the event file was missing or named none', () => {
  const env = { GITHUB_REPOSITORY: 'owner/repo', GITHUB_ACTIONS: 'true' };
  expect(commentTargetOf(env, undefined, undefined)).toStrictEqual({
    problem:
      'no pull request: GITHUB_EVENT_PATH is not set, so no event names one; run on pull_request or workflow_run, or pass --pull-request N',
  });
  expect(commentTargetOf({ ...env, GITHUB_EVENT_PATH: '/github/workflow/event.json' }, {}, undefined)).toStrictEqual({
    problem:
      'no pull request: the event payload (GITHUB_EVENT_PATH) names none; run on pull_request or workflow_run, or pass --pull-request N',
  });
});
