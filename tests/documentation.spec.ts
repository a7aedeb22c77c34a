import { expect, test } from './support/test.js';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { budgetsSchema, createDeterministicClock, pollUntil, retryBounded, settingsFileSchema } from '../src/index.js';
import { codeBlocksOf, readDocuments, type CodeBlock } from './support/documents.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import {
  childEnvironment,
  createTemporaryFolder,
  pathExists,
  programPath,
  repositoryRoot,
  runProgram,
  type ProgramOutcome,
} from './support/runProgram.js';

const documents = readDocuments();

// Every fenced block a user would paste is run, type-checked or parsed, and
// every block of output is compared with what the program prints, so the
// documents cannot drift from the code. How each block is checked is the
// comment before it (CONTRIBUTING.md, "The documents are specs too").
// The tests run the documents' commands and workflows (dozens of child processes), type-check their
// snippets against the packed package (npm pack, tsc) and run Playwright on the README's steps: 4 to
// 12 s each on a loaded machine, more on a busier one; 120 s each, so that only a hang fails them.
test.describe.configure({ timeout: 120_000 });

const blocks = documents.flatMap(codeBlocksOf);
const kinds = ['command', 'workflow', 'typescript', 'settings', 'budgets', 'input', 'output', 'illustrative', 'not-run'];
const where = (block: CodeBlock): string => `${block.document}:${block.line}`;
const ofKind = (kind: string): CodeBlock[] => blocks.filter((block) => block.check?.kind === kind);
const command = programPath('src/cli/main.js');
const bundledFixture = join(repositoryRoot, 'fixtures', 'quality-executions.json');

test('every code block says how it is checked, with a known kind, and a block that is not checked says why', () => {
  expect(blocks.length).toBeGreaterThan(30);
  const problems = blocks.flatMap((block) => {
    if (block.check === undefined) return [`${where(block)}: no <!-- check: ... --> comment before the block`];
    if (!kinds.includes(block.check.kind)) return [`${where(block)}: unknown kind ${block.check.kind}`];
    if (['illustrative', 'not-run'].includes(block.check.kind) && block.check.reason === undefined)
      return [`${where(block)}: ${block.check.kind} without a reason`];
    return [];
  });
  expect(problems).toEqual([]);
});

test('every settings file in the documents is a settings file the package accepts', () => {
  const settings = ofKind('settings');
  expect(settings.length).toBeGreaterThan(0);
  for (const block of settings) expect(settingsFileSchema.safeParse(JSON.parse(block.code)).error?.issues, where(block)).toBeUndefined();
});

test('every budgets file in the documents is a budgets file the package accepts', () => {
  const budgets = ofKind('budgets');
  expect(budgets.length).toBeGreaterThan(1);
  for (const block of budgets) expect(budgetsSchema.safeParse(JSON.parse(block.code)).error?.issues, where(block)).toBeUndefined();
});

test('every input document in the documents is summarised by the command', async () => {
  const inputs = ofKind('input');
  expect(inputs.length).toBeGreaterThan(0);
  for (const block of inputs) {
    const folder = await createTemporaryFolder({ 'input.json': block.code }, 'docs');
    const outcome = await runCommand(folder, ['input.json', '--quiet']);
    expect(outcome, where(block)).toMatchObject({ exitCode: 0, stderr: '' });
  }
});

test('every quality-evidence command in the documents runs as written, with the exit code its comment gives', async () => {
  const commands = ofKind('command');
  expect(commands.length).toBeGreaterThan(2);
  for (const block of commands) {
    const lines = block.code.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    const others = lines.filter((line) => !line.includes('npx quality-evidence'));
    if (others.length > 0) expect(block.check?.reason, `${where(block)} does not run ${others.join('; ')} and must say why`).toBeDefined();
    const runnable = lines.filter((line) => line.includes('npx quality-evidence'));
    expect(runnable.length, where(block)).toBeGreaterThan(0);
    await runCommandLines(block, runnable);
  }
});

test('every workflow in the documents is valid YAML of jobs and steps, and its quality-evidence lines run as written', async () => {
  const workflows = ofKind('workflow');
  expect(workflows.length).toBeGreaterThan(1);
  for (const block of workflows) {
    const workflow = workflowSchema.parse(parseYaml(block.code));
    const runLines = Object.values(workflow.jobs)
      .flatMap((job) => job.steps)
      .flatMap((step) => (step.run === undefined ? [] : step.run.split('\n')))
      .map((line) => line.trim())
      .filter((line) => line !== '');
    // npm's and Playwright's own commands are theirs to test; every other line is this package's and runs.
    const ours = runLines.filter((line) => !/^(npm ci|npx playwright )/.test(line));
    expect(ours.length, where(block)).toBeGreaterThan(0);
    for (const line of ours) expect(line, `${where(block)}: a line the spec cannot run`).not.toContain('${{');
    await runCommandLines(block, ours);
  }
});

test('every TypeScript snippet in the documents type-checks against the packed package', async () => {
  const snippets = ofKind('typescript');
  expect(snippets.length).toBeGreaterThan(8);
  const files: Record<string, string> = { 'tsconfig.json': CONSUMER_TSCONFIG, 'ambient.d.ts': AMBIENT_DECLARATIONS };
  snippets.forEach((block, index) => (files[`block-${index}/${snippetFileName(block)}`] = block.code));
  const project = await createPlaywrightProject(files);
  const outcome = await runNode(project, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
  const errors = outcome.stdout.replace(
    /block-(\d+)\//g,
    (_, index: string) => `${snippets[Number(index)] === undefined ? '?' : where(snippets[Number(index)] as CodeBlock)} `,
  );
  expect(errors).toBe('');
  expect(outcome.exitCode).toBe(0);
});

test('every option object the TypeScript snippets give the reporter is a set of settings the package accepts', () => {
  // Playwright types a reporter's options as any: tsc cannot see a misspelt option, the settings schema can.
  const options = ofKind('typescript').flatMap((block) =>
    [...block.code.matchAll(/\['quality-evidence\/reporter', (\{.*\})\]/g)].map((match) => ({ block, literal: match[1] ?? '' })),
  );
  expect(options.length).toBeGreaterThan(2);
  for (const { block, literal } of options) {
    expect(settingsFileSchema.safeParse(runInNewContext(`(${literal})`)).error?.issues, `${where(block)}: ${literal}`).toBeUndefined();
  }
});

test('every block of output in the documents is what the program prints, or says why it is illustrative', async () => {
  const outputs = ofKind('output').filter((block) => block.check?.options.get('of') !== README_RUN);
  expect(outputs.map((block) => block.check?.options.get('of')).sort()).toEqual(Object.keys(producers).sort());
  for (const block of outputs) {
    const produce = producers[block.check?.options.get('of') ?? ''];
    if (produce === undefined) throw new Error(`${where(block)}: no producer named ${block.check?.options.get('of')}`);
    const printed = await produce(block);
    // Soft, so that one run names every block that drifted.
    if (block.language === 'json') expect.soft(JSON.parse(printed), where(block)).toEqual(JSON.parse(block.code));
    else expect.soft(printed.trimEnd(), where(block)).toBe(block.code.trimEnd());
  }
});

test("the README's Playwright steps, pasted into a new project, end with the closing line it shows and write the files where it says", async () => {
  const config = namedBlock('readme-config');
  const spec = namedBlock('readme-spec');
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/orders' ? 200 : 404, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const { port } = server.address() as AddressInfo;
    // The one line the README leaves to the user's own config: where the API under test is.
    const project = await createPlaywrightProject({
      [snippetFileName(config)]: config.code.replace('  reporter:', `  use: { baseURL: 'http://127.0.0.1:${port}' },\n  reporter:`),
      [snippetFileName(spec)]: spec.code,
    });
    const outcome = await runPlaywright(project, ['test']);
    expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
    const closingLine = outcome.stdout.split('\n').find((line) => line.startsWith('quality-evidence: '));
    const block = blocks.find((candidate) => candidate.check?.options.get('of') === README_RUN);
    expect(closingLine).toBe(block?.code.trimEnd());
    for (const file of ['out/quality-summary.json', 'out/quality-summary.md', 'out/quality-summary.html'])
      expect(await pathExists(join(project, file)), file).toBe(true);
  } finally {
    await new Promise((closed) => server.close(closed));
  }
});

/** The README's closing line: the spec above compares it with a real run of the README's steps. */
const README_RUN = 'readme-run';

/** What the program prints, for each block of output (`<!-- check: output of=NAME -->`). */
const producers: Readonly<Record<string, (block: CodeBlock) => Promise<string>>> = {
  // CONTRIBUTING.md: the SPEC's fields of what npm start prints.
  'npm-start-fields': async (block) => {
    const outcome = await runProgram('scripts/start.js');
    const report = JSON.parse(outcome.stdout) as Record<string, unknown>;
    return JSON.stringify(Object.fromEntries(Object.keys(JSON.parse(block.code) as object).map((key) => [key, report[key]])));
  },
  // docs/report-format.md: the command on a terminal (a pseudo-terminal made by script(1)), over the bundled fixture.
  terminal: async () => {
    const folder = await createTemporaryFolder({ 'quality-executions.json': readFileSync(bundledFixture, 'utf8') }, 'docs');
    const line = [process.execPath, command, 'quality-executions.json', '--environment', 'local-example'].map(shellQuote).join(' ');
    const outcome = await runIn(folder, 'script', ['-q', '-c', line, '/dev/null'], { NO_COLOR: '1' });
    // A progress line (drawn and erased with \r and ESC[K) would come first, were the read to take more than a second.
    const erased = outcome.stdout.lastIndexOf('\u001b[K');
    return outcome.stdout.slice(erased < 0 ? 0 : erased + 3).replace(/\r\n/g, '\n');
  },
  // docs/input-formats.md: the message for invalid records.
  'invalid-records': async () => {
    const folder = await createTemporaryFolder({}, 'docs');
    const outcome = await runProgram('scripts/startEnvironment.js', {
      env: {
        QE_ENVIRONMENT: 'docs',
        QE_INPUT_PATH: join(repositoryRoot, 'tests/documentation/invalid-records.json'),
        QE_OUTPUT_PATH: join(folder, 'quality-summary.json'),
      },
    });
    expect(outcome.exitCode).toBe(65);
    return outcome.stderr;
  },
  // docs/budgets-and-baseline.md: a breach, on stderr.
  'budget-breach': async () => {
    const folder = await createTemporaryFolder({}, 'docs');
    const inputs = join(repositoryRoot, 'tests/documentation');
    const outcome = await runCommand(folder, [
      join(inputs, 'breach.json'),
      '--route',
      '/orders/:orderId',
      '--budgets',
      join(inputs, 'breach-budgets.json'),
      '--quiet',
    ]);
    expect(outcome.exitCode).toBe(1);
    return outcome.stderr;
  },
  // docs/helpers.md: the two helper errors, with the snippets' values on the deterministic clock.
  'poll-timeout': async () => {
    const failure: unknown = await pollUntil({
      operationName: 'export job status',
      operation: () => Promise.resolve({ state: 'pending' }),
      isComplete: (job) => job.state !== 'pending',
      describe: (job) => `state ${job.state}`,
      timeoutMs: 1000,
      intervalMs: 100,
      clock: createDeterministicClock(),
    }).catch((error: unknown) => error);
    return failure instanceof Error ? failure.message : 'no failure';
  },
  'retry-exhausted': async () => {
    class ServiceUnavailable extends Error {
      override readonly name = 'ServiceUnavailable';
    }
    const failure: unknown = await retryBounded({
      operationName: 'create order',
      operation: () => Promise.reject(new ServiceUnavailable('POST /orders answered 503')),
      shouldRetry: (error) => error instanceof ServiceUnavailable,
      maxAttempts: 2,
      delayMs: 50,
      clock: createDeterministicClock(),
    }).catch((error: unknown) => error);
    return failure instanceof Error ? failure.message : 'no failure';
  },
};

const workflowSchema = z
  .object({
    on: z.unknown(),
    jobs: z.record(
      z.string(),
      z
        .object({
          'runs-on': z.string(),
          steps: z
            .array(
              z
                .object({ uses: z.string().optional(), run: z.string().optional() })
                .loose()
                .refine((step) => step.uses !== undefined || step.run !== undefined, 'a step uses an action or runs a command'),
            )
            .min(1),
        })
        .loose(),
    ),
  })
  .loose();

/** Names a snippet uses without defining them: the fictional API of the helpers' examples. */
const AMBIENT_DECLARATIONS = `interface ExportJob { readonly state: 'pending' | 'complete' | 'failed' }
interface Order { readonly item: string }
declare const api: { getExport(id: string): Promise<ExportJob>; createOrder(order: Order): Promise<{ readonly id: string }> };
declare const order: Order;
declare class ServiceUnavailable extends Error {}
`;

const CONSUMER_TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['**/*.ts'],
});

/** The file a snippet names in its first line (`// playwright.config.ts`), else `snippet.ts`. */
function snippetFileName(block: CodeBlock): string {
  return /^\/\/ ([\w./-]+\.ts)\n/.exec(block.code)?.[1] ?? 'snippet.ts';
}

function namedBlock(name: string): CodeBlock {
  const block = blocks.find((candidate) => candidate.check?.options.get('name') === name);
  if (block === undefined) throw new Error(`no block named ${name}`);
  return block;
}

/** A file's content from a source of the convention: `fixture`, a block's name, or a path in the repository. */
function sourceText(source: string): string {
  if (source === 'fixture') return readFileSync(bundledFixture, 'utf8');
  if (source.includes('/')) return readFileSync(join(repositoryRoot, source), 'utf8');
  return namedBlock(source).code;
}

function pairs(option: string | undefined): [string, string][] {
  return (option ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [name = '', source = ''] = pair.split(':');
      return [name, source];
    });
}

/**
 * Runs lines of a command or workflow block with bash in a fresh folder
 * holding the files its comment names, where `npx quality-evidence` is the
 * built command; each must exit with the comment's `exit=` (default 0).
 */
async function runCommandLines(block: CodeBlock, lines: readonly string[]): Promise<void> {
  const options = block.check?.options ?? new Map<string, string>();
  const folder = await createTemporaryFolder({}, 'docs');
  const bin = await createTemporaryFolder({}, 'docs-bin');
  for (const [path, source] of pairs(options.get('files'))) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), sourceText(source));
  }
  const npx =
    '#!/bin/sh\n' +
    `if [ "$1" = quality-evidence ]; then shift; exec ${shellQuote(process.execPath)} ${shellQuote(command)} "$@"; fi\n` +
    'echo "npx $1 is not run by the documentation spec" >&2\n' +
    'exit 127\n';
  await writeFile(join(bin, 'npx'), npx, { mode: 0o755 });
  for (const [name, source] of pairs(options.get('bin'))) {
    await writeFile(join(bin, `${name}.data`), sourceText(source));
    await writeFile(join(bin, name), `#!/bin/sh\nexec cat ${shellQuote(join(bin, `${name}.data`))}\n`, { mode: 0o755 });
  }
  const report = options.get('report');
  // `report-args=--history|h.jsonl`: more arguments for the run that makes the report, |-separated.
  const reportArgs = options.get('report-args')?.split('|') ?? [];
  if (report !== undefined)
    expect(
      (await runCommand(folder, [bundledFixture, '--output', report, '--environment', 'docs', ...reportArgs, '--quiet'])).exitCode,
    ).toBe(0);
  const expectedExit = Number(options.get('exit') ?? '0');
  for (const line of lines) {
    const outcome = await runIn(folder, 'bash', ['-o', 'pipefail', '-c', line], {}, `${bin}:${process.env['PATH'] ?? ''}`);
    expect(outcome.exitCode, `${where(block)}: ${line}\n${outcome.stderr}`).toBe(expectedExit);
  }
}

function runCommand(cwd: string, args: readonly string[]): Promise<ProgramOutcome> {
  return runNode(cwd, [command, ...args]);
}

function runNode(cwd: string, args: readonly string[]): Promise<ProgramOutcome> {
  return runIn(cwd, process.execPath, args);
}

/** Runs a program in a folder with exactly the given environment plus PATH (and the run's TMPDIR). */
function runIn(
  cwd: string,
  program: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  path = process.env['PATH'] ?? '',
): Promise<ProgramOutcome> {
  return new Promise((done) => {
    execFile(program, args, { cwd, env: childEnvironment({ PATH: path, ...env }) }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ exitCode, stdout, stderr });
    });
  });
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
