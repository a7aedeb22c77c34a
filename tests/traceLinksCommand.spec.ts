import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareWithBaseline, formatReport } from '../src/index.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence comment` takes the trace URL template as every command
// takes a setting (--trace-url-template, QE_TRACE_URL_TEMPLATE), and refuses
// a bad one before it reads the report, naming where it came from, never
// what it said.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A report compared with its base: POST /orders newly failing, its one 500 traced. */
function newlyFailing(): string {
  const base = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  const head = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  for (let index = 0; index < 40; index++) {
    const locate = () => ({ kind: 'list', listPath: '', index }) as const;
    base.take({ endpoint: 'POST /orders', statusCode: 201, responseTimeMs: 10 + (index % 5) }, locate);
    const record = index === 0 ? { statusCode: 500, traceId: TRACE } : { statusCode: 201 };
    head.take({ endpoint: 'POST /orders', responseTimeMs: 10 + (index % 5), ...record }, locate);
  }
  const report = head.finish();
  return formatReport({ ...report, baseline: compareWithBaseline(report, base.finish()) });
}

const LINK = `[trace 4bf92f35](https://tempo.example/trace/${TRACE})`;

test('comment --trace-url-template links the failed calls it names to their traces; QE_TRACE_URL_TEMPLATE does the same', async () => {
  const folder = await createTemporaryFolder({ 'report.json': newlyFailing() }, 'comment');
  const template = 'https://tempo.example/trace/{traceId}';

  const byFlag = await runProgram('src/cli/main.js', {
    args: ['comment', 'report.json', '--output', 'flag.md', '--trace-url-template', template],
    cwd: folder,
  });
  const byVariable = await runProgram('src/cli/main.js', {
    args: ['comment', 'report.json', '--output', 'variable.md'],
    env: { QE_TRACE_URL_TEMPLATE: template },
    cwd: folder,
  });

  expect([byFlag.exitCode, byVariable.exitCode]).toStrictEqual([0, 0]);
  const body = await readFile(join(folder, 'flag.md'), 'utf8');
  expect(body).toContain(`: \`POST /orders (500 ×1)\` · ${LINK}\n`);
  expect(body).toContain(`: \`500\` ×1<br>${LINK} |`);
  expect(await readFile(join(folder, 'variable.md'), 'utf8')).toBe(body);
});

test('a QE_TRACE_URL_TEMPLATE that is no http URL with {traceId} stops comment (78), naming the variable, not its value; nothing is written', async () => {
  const folder = await createTemporaryFolder({ 'report.json': newlyFailing() }, 'comment');

  const outcome = await runProgram('src/cli/main.js', {
    args: ['comment', 'report.json', '--output', 'comment.md'],
    env: { QE_TRACE_URL_TEMPLATE: 'https://token-s3cr3t@tempo.example/trace' },
    cwd: folder,
  });

  expect(outcome.exitCode).toBe(78);
  expect(outcome.stderr).toContain('QE_TRACE_URL_TEMPLATE');
  expect(outcome.stderr).toContain('must be an http or https URL with {traceId}');
  expect(`${outcome.stdout}${outcome.stderr}`).not.toContain('s3cr3t');
  await expect(readFile(join(folder, 'comment.md'), 'utf8')).rejects.toThrow('ENOENT');
});

test('comment --help names --trace-url-template and its variable', async () => {
  const outcome = await runProgram('src/cli/main.js', { args: ['comment', '--help'] });

  expect(outcome.stdout).toMatch(
    /--trace-url-template <url> +link each failed call to its trace: a URL with \{traceId\} \(QE_TRACE_URL_TEMPLATE\)/,
  );
});

test("compare --trace-url-template links HEAD's failed calls in the Markdown it writes", async () => {
  const base = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  base.take({ endpoint: 'POST /orders', statusCode: 201, responseTimeMs: 10 }, () => ({ kind: 'list', listPath: '', index: 0 }));
  const folder = await createTemporaryFolder({ 'base.json': formatReport(base.finish()), 'head.json': headOnly() }, 'compare');
  const outcome = await runProgram('src/cli/main.js', {
    args: [
      'compare',
      'base.json',
      'head.json',
      '--output',
      'compared.json',
      '--trace-url-template',
      'https://tempo.example/trace/{traceId}',
    ],
    cwd: folder,
  });
  expect(outcome.exitCode).toBe(0);
  expect(await readFile(join(folder, 'compared.md'), 'utf8')).toContain(LINK);
});

/** HEAD alone: POST /orders, its one 500 traced. */
function headOnly(): string {
  const head = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  head.take({ endpoint: 'POST /orders', statusCode: 500, responseTimeMs: 10, traceId: TRACE }, () => ({
    kind: 'list',
    listPath: '',
    index: 0,
  }));
  return formatReport(head.finish());
}
