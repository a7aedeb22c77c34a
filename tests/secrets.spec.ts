import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { quotePath } from '../src/renderValue.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot, runProgram, type ProgramOutcome } from './support/runProgram.js';
import { GIT_ENVIRONMENT } from './support/git.js';
import { expect, test } from './support/test.js';

// Secret hygiene: a token planted in every QE_* variable, in unrelated
// variables and in unknown record fields never reaches anything the run
// prints or writes. The one documented exception: a file the run was told
// to read (an input, a budgets file, a baseline) is named in the message
// about it (it cannot be read, or something in it is wrong), always quoted
// and shortened like any rendered value; the scan takes exactly that quoted
// path out before it looks.

const TOKEN = 'qe-planted-token-7c41e9';
const unrelated = { API_TOKEN: TOKEN, GITHUB_TOKEN: TOKEN, DATABASE_URL: `postgres://user:${TOKEN}@db/app` };

const record = (extra: object = {}) =>
  JSON.stringify({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12, apiKey: TOKEN, ...extra });
const files = {
  'in.ndjson': `${record()}\n${record({ statusCode: 503, headers: { authorization: `Bearer ${TOKEN}` } })}\n`,
  'bad.ndjson': `${record()}\n${record({ statusCode: 99 })}\n`,
  'broken.json': `{"executions":[${record()}, {"token":"${TOKEN}" oops]}`,
  'budgets.json': '{ "maxFailureRate": 0 }',
  [`budgets-${TOKEN}.json`]: '{ "maxFailures": 0 }',
  [`broken-${TOKEN}.json`]: '{ "maxFailureRate": ',
  [`p95-${TOKEN}.json`]: '{ "maxP95IncreasePercent": 10 }',
  // A key that is not a setting: its value is never shown. (A known key's bad value is shown, shortened, as the file's own data.)
  'settings.json': `{ "slowResponseThreshold": "${TOKEN}", "apiToken": "${TOKEN}" }`,
};

interface FailureMode {
  readonly name: string;
  readonly env: Readonly<Record<string, string>>;
  readonly exitCode: number;
  /** Files the run was told to read whose path may be named (quoted) in its message. */
  readonly namedPaths?: readonly string[];
}

// Each mode fails in its own way; every QE_* variable carries the token in
// one mode or more, where it would show if a message echoed it.
const base = { QE_ENVIRONMENT: `staging-${TOKEN}`, QE_INPUT_PATH: 'in.ndjson' };
const modes: readonly FailureMode[] = [
  { name: 'a bad threshold', env: { ...base, QE_SLOW_RESPONSE_THRESHOLD_MS: TOKEN }, exitCode: 78 },
  { name: 'bad expected statuses', env: { ...base, QE_EXPECTED_STATUSES: TOKEN }, exitCode: 78 },
  { name: 'a bad route', env: { ...base, QE_ROUTES: TOKEN }, exitCode: 78 },
  { name: 'a bad grouping', env: { ...base, QE_ENDPOINT_GROUPING: TOKEN }, exitCode: 78 },
  { name: 'bad formats', env: { ...base, QE_REPORT_FORMATS: TOKEN }, exitCode: 78 },
  {
    name: 'a missing environment, the token in the output path',
    env: { QE_INPUT_PATH: 'in.ndjson', QE_OUTPUT_PATH: `out/${TOKEN}.json` },
    exitCode: 78,
  },
  { name: 'a settings file with a bad value', env: { ...base, QE_CONFIG_PATH: 'settings.json' }, exitCode: 78 },
  {
    name: 'a missing input',
    env: { ...base, QE_INPUT_PATH: `missing/${TOKEN}.ndjson` },
    exitCode: 66,
    namedPaths: [`missing/${TOKEN}.ndjson`],
  },
  {
    name: 'a missing settings file',
    env: { ...base, QE_CONFIG_PATH: `missing/${TOKEN}.json` },
    exitCode: 66,
    namedPaths: [`missing/${TOKEN}.json`],
  },
  {
    name: 'a missing budgets file',
    env: { ...base, QE_BUDGETS_PATH: `missing/${TOKEN}.json` },
    exitCode: 66,
    namedPaths: [`missing/${TOKEN}.json`],
  },
  {
    name: 'a missing baseline',
    env: { ...base, QE_BASELINE_PATH: `missing/${TOKEN}.json` },
    exitCode: 66,
    namedPaths: [`missing/${TOKEN}.json`],
  },
  // A budgets file or a baseline whose path holds the token, with something wrong inside: named, quoted and shortened, as any path a user gives.
  {
    name: 'a budgets file with a bad key',
    env: { ...base, QE_BUDGETS_PATH: `budgets-${TOKEN}.json` },
    exitCode: 78,
    namedPaths: [`budgets-${TOKEN}.json`],
  },
  {
    name: 'a budgets file that is not JSON',
    env: { ...base, QE_BUDGETS_PATH: `broken-${TOKEN}.json` },
    exitCode: 78,
    namedPaths: [`broken-${TOKEN}.json`],
  },
  {
    name: 'budgets comparing with no baseline',
    env: { ...base, QE_BUDGETS_PATH: `p95-${TOKEN}.json` },
    exitCode: 78,
    namedPaths: [`p95-${TOKEN}.json`],
  },
  {
    name: 'a baseline that is not a report',
    env: { ...base, QE_BASELINE_PATH: `budgets-${TOKEN}.json` },
    exitCode: 65,
    namedPaths: [`budgets-${TOKEN}.json`],
  },
  { name: 'invalid records', env: { ...base, QE_INPUT_PATH: 'bad.ndjson' }, exitCode: 65 },
  { name: 'broken JSON', env: { ...base, QE_INPUT_PATH: 'broken.json' }, exitCode: 65 },
  { name: 'an output path that cannot be made', env: { ...base, QE_OUTPUT_PATH: `in.ndjson/${TOKEN}/q.json` }, exitCode: 73 },
  { name: 'an output path that is the input', env: { ...base, QE_OUTPUT_PATH: 'in.ndjson' }, exitCode: 73, namedPaths: ['in.ndjson'] },
  {
    name: 'a breached budget (the report is written)',
    env: { ...base, QE_BUDGETS_PATH: 'budgets.json', QE_OUTPUT_PATH: 'out/q.json', QE_ENVIRONMENT: 'staging' },
    exitCode: 1,
  },
];

async function everythingWritten(folder: string): Promise<string> {
  const texts: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (!(relative(folder, path) in files)) texts.push(`${relative(folder, path)}:\n${await readFile(path, 'utf8')}`);
    }
  };
  await walk(folder);
  return texts.join('\n');
}

function scanned(outcome: ProgramOutcome, written: string, namedPaths: readonly string[]): string {
  let text = `${outcome.stdout}\n${outcome.stderr}\n${written}`;
  for (const path of namedPaths) text = text.split(quotePath(path)).join('"<named path>"');
  return text;
}

for (const mode of modes) {
  test(`${mode.name}: exit ${mode.exitCode}, and the token is nowhere in what is printed or written`, async () => {
    const folder = await createTemporaryFolder(files, 'secrets');
    await mkdir(join(folder, 'out'));

    const outcome = await runProgram('scripts/startEnvironment.js', { cwd: folder, env: { ...unrelated, ...mode.env } });

    expect(outcome.exitCode, outcome.stderr).toBe(mode.exitCode);
    expect(scanned(outcome, await everythingWritten(folder), mode.namedPaths ?? [])).not.toContain(TOKEN);
  });
}

test('the command, given the token in flags and unrelated variables, prints it nowhere on a failure', async () => {
  const folder = await createTemporaryFolder(files, 'secrets');

  const outcomes = [
    await runProgram('src/cli/main.js', { cwd: folder, env: unrelated, args: ['in.ndjson', '--slow-response-threshold-ms', TOKEN] }),
    await runProgram('src/cli/main.js', {
      cwd: folder,
      env: unrelated,
      args: ['in.ndjson', '--environment', TOKEN, '--expected-statuses', TOKEN],
    }),
    await runProgram('src/cli/main.js', {
      cwd: folder,
      env: unrelated,
      args: ['bad.ndjson', '--environment', TOKEN, '-o', `out/${TOKEN}.json`],
    }),
    await runProgram('src/cli/main.js', { cwd: folder, env: { ...unrelated, QE_QUIET: TOKEN }, args: ['in.ndjson'] }),
  ];

  expect(outcomes.map(({ exitCode }) => exitCode)).toEqual([78, 78, 65, 78]);
  for (const outcome of outcomes) expect(scanned(outcome, await everythingWritten(folder), [])).not.toContain(TOKEN);
});

test('a session id in matrix parameters reaches no report, history line or Prometheus label: /cart;jsessionid=…/items is GET /cart/items', async () => {
  const session = `;jsessionid=${TOKEN}`;
  const url = `https://shop.example/cart${session}/items${session}?page=2`;
  const entry = (status: number) => ({ time: 900, request: { method: 'GET', url }, response: { status } });
  const folder = await createTemporaryFolder(
    {
      'records.json': JSON.stringify({ executions: [{ statusCode: 503, endpoint: `GET /cart${session}/items`, responseTimeMs: 900 }] }),
      'calls.har': JSON.stringify({ log: { entries: [entry(200), entry(500)] } }),
    },
    'secrets',
  );
  await mkdir(join(folder, 'out'));
  const args = ['records.json', 'calls.har', '-o', 'out/q.json', '--environment', 'staging'];
  args.push('--history', 'out/history.jsonl', '--export', 'prometheus=out/metrics.prom');

  const outcome = await runProgram('src/cli/main.js', { cwd: folder, args });

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  const report = JSON.parse(await readFile(join(folder, 'out/q.json'), 'utf8')) as { endpoints: { endpoint: string }[] };
  expect(report.endpoints.map(({ endpoint }) => endpoint)).toEqual(['GET /cart/items']);
  expect((await readdir(join(folder, 'out'))).sort()).toEqual(['history.jsonl', 'metrics.prom', 'q.html', 'q.json', 'q.md']);
  expect(scanned(outcome, await everythingWritten(join(folder, 'out')), [])).not.toContain('jsessionid');
});

test('the tracked files hold nothing that looks like a real credential, and .gitignore keeps out .env files, builds and reports', async () => {
  // git with none of the machine's configuration: a global ignore file must not hide what .gitignore misses.
  const git = { cwd: repositoryRoot, env: childEnvironment(GIT_ENVIRONMENT) };
  const tracked = execFileSync('git', ['ls-files', '-z'], { ...git, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  const patterns: readonly [string, RegExp][] = [
    ['a GitHub token', /\bgh[pousr]_[A-Za-z0-9]{36}\b/],
    ['a fine-grained GitHub token', /\bgithub_pat_[A-Za-z0-9_]{60,}\b/],
    ['an AWS access key id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
    ['a Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
    ['an npm token', /\bnpm_[A-Za-z0-9]{36}\b/],
    ['a private key', /-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----/],
    ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/],
    ['a secret assigned in the clear', /\b(?:api[_-]?key|secret|password|passwd|auth[_-]?token)\b\s*[:=]\s*["'][A-Za-z0-9+/_-]{24,}["']/i],
  ];
  const findings: string[] = [];
  for (const file of tracked) {
    const bytes = await readFile(join(repositoryRoot, file)).catch(() => undefined);
    if (bytes === undefined || bytes.includes(0)) continue;
    const text = bytes.toString('utf8');
    for (const [what, pattern] of patterns) if (pattern.test(text)) findings.push(`${file}: ${what}`);
  }
  expect(findings).toEqual([]);

  const ignored = (path: string): boolean => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', path], git);
      return true;
    } catch {
      return false;
    }
  };
  expect(
    [
      '.env',
      '.env.local',
      '.build/quality-summary.json',
      'quality-summary.json',
      'reports/quality-summary.html',
      'test-results/x',
      'node_modules/x',
      'package.tgz',
      '.quality-evidence-1-deadbeef.tmp',
    ].filter((path) => !ignored(path)),
  ).toEqual([]);
});

test('the scan is not blind: a successful run reports the environment it was given, token and all, and the scan finds it', async () => {
  const folder = await createTemporaryFolder(files, 'secrets');

  const outcome = await runProgram('scripts/startEnvironment.js', {
    cwd: folder,
    env: { ...unrelated, ...base, QE_OUTPUT_PATH: 'q.json' },
  });

  expect(outcome.exitCode).toBe(0);
  expect(scanned({ ...outcome, stdout: '' }, await everythingWritten(folder), [])).toContain(`"environment": "staging-${TOKEN}"`);
});
