import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { pathExists } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// What the reporter would find only at the run's end (a bad or missing
// budgets file, a baseline that the report would replace) stops the run
// before any test file is loaded: a user learns it in seconds, not after the
// suite. Real Playwright, on a small project whose spec leaves a mark.
// One or two Playwright runs each, stopped early (5 to 15 s measured on a loaded machine): 240 s each.
test.describe.configure({ timeout: 240_000 });

const config = (options: string) => `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  reporter: [['list'], ['quality-evidence/reporter', ${options}]],
});
`;

// Loading the spec file leaves a mark, so that "no test file ran" is seen, not inferred.
const markingSpec = `import { test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
writeFileSync('spec-loaded.txt', 'yes');
test('passes', () => {});
`;

test('a budgets file with a bad budget stops the run before any test file is loaded, naming the key and the file', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', budgets: 'budgets.json' }`),
    'budgets.json': '{ "maxFailedExecutions": -1 }\n',
    'tests/a.spec.ts': markingSpec,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stdout + outcome.stderr).toContain(
    `ConfigurationError: invalid budgets:\n  - maxFailedExecutions in "${join(project, 'budgets.json')}": `,
  );
  expect(await pathExists(join(project, 'spec-loaded.txt')), 'the spec file was loaded').toBe(false);
  expect(await pathExists(join(project, 'out/q.json'))).toBe(false);
});

test('a budgets file that cannot be read stops the run before any test file is loaded', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', budgets: 'missing-budgets.json' }`),
    'tests/a.spec.ts': markingSpec,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stdout + outcome.stderr).toContain(
    `InputUnreadableError: cannot read the budgets file "${join(project, 'missing-budgets.json')}": no such file or directory (ENOENT)`,
  );
  expect(await pathExists(join(project, 'spec-loaded.txt'))).toBe(false);
});

test('an OpenAPI document that is not one stops the run before any test file is loaded, naming the file and the line', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', openapi: 'openapi.yaml' }`),
    'openapi.yaml': 'openapi: 3.0.3\ninfo: {}\nopenapi: 3.1.0\n',
    'tests/a.spec.ts': markingSpec,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stdout + outcome.stderr).toContain(
    `ConfigurationError: invalid OpenAPI document:\n  - "${join(project, 'openapi.yaml')}": is not well-formed YAML at line 3, column 1`,
  );
  expect(await pathExists(join(project, 'spec-loaded.txt'))).toBe(false);
});

test('a baseline that is the output file stops the run before any test file is loaded, and the baseline stays', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', baselinePath: 'out/q.json' }`),
    'tests/a.spec.ts': markingSpec,
  });
  // A report of this tool to compare with: the one a first run writes.
  await writeFile(join(project, 'playwright.config.ts'), config(`{ outputFile: 'out/q.json' }`));
  expect((await runPlaywright(project, ['test'])).exitCode).toBe(0);
  const baseline = await readFile(join(project, 'out/q.json'), 'utf8');
  await writeFile(join(project, 'playwright.config.ts'), config(`{ outputFile: 'out/q.json', baselinePath: 'out/q.json' }`));
  await writeFile(join(project, 'spec-loaded.txt'), '');
  await writeFile(join(project, 'tests/a.spec.ts'), markingSpec.replace("'spec-loaded.txt', 'yes'", "'spec-loaded.txt', 'again'"));

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stdout + outcome.stderr).toContain(
    `ReportWriteError: cannot write the report: the output path is the baseline report "${join(project, 'out/q.json')}", ` +
      'which this run reads: writing the report there would destroy it',
  );
  expect(await readFile(join(project, 'spec-loaded.txt'), 'utf8'), 'the spec file was loaded').toBe('');
  expect(await readFile(join(project, 'out/q.json'), 'utf8')).toBe(baseline);
});

test(`an export naming a file the OpenAPI document brings in through $ref stops the run before any test file is loaded, and \
the file stays (issue 34)`, async () => {
  const order = 'type: object\nproperties:\n  id: { type: integer }\n';
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', openapi: 'api.yaml', exports: { junit: 'schemas/order.yaml' } }`),
    'api.yaml':
      'openapi: 3.1.0\ninfo: { title: shop, version: "1" }\npaths:\n  /orders:\n    get:\n      responses:\n' +
      '        "200":\n          description: the orders\n          content:\n            application/json:\n' +
      '              schema:\n                $ref: "./schemas/order.yaml"\n',
    'tests/a.spec.ts': markingSpec,
  });
  await mkdir(join(project, 'schemas'));
  await writeFile(join(project, 'schemas/order.yaml'), order);

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stdout + outcome.stderr).toContain(
    'ReportWriteError: cannot write the report: the junit export is the OpenAPI document ' +
      `"${join(project, 'schemas/order.yaml')}", which this run reads: writing the report there would destroy it`,
  );
  expect(await pathExists(join(project, 'spec-loaded.txt'))).toBe(false);
  expect(await readFile(join(project, 'schemas/order.yaml'), 'utf8')).toBe(order);
});

test('playwright test --list checks nothing and writes nothing, even with a budgets file missing', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': config(`{ outputFile: 'out/q.json', budgets: 'missing-budgets.json' }`),
    'tests/a.spec.ts': markingSpec,
  });

  const outcome = await runPlaywright(project, ['test', '--list']);

  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(outcome.stdout).toContain('Total: 1 test in 1 file');
  expect(await pathExists(join(project, 'out/q.json'))).toBe(false);
});
