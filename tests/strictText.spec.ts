import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { childEnvironment, createTemporaryFolder, pathExists, programPath, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Bytes that are not UTF-8 are refused wherever they come from, as an
// input's are, never turned into U+FFFD without a word: a settings file, a
// variable, a flag and a Playwright execution attachment (issue 18).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });

/** Runs the compiled command through sh, so that a variable or an argument can hold raw bytes (`$(printf '\351')`), which Node cannot pass on. */
function commandInShell(folder: string, line: string): Promise<ProgramOutcome> {
  const program = programPath('src/cli/main.js');
  return new Promise((done) => {
    execFile(
      'sh',
      ['-c', line.replace('$QE', `'${process.execPath}' '${program}'`)],
      { cwd: folder, env: childEnvironment(), timeout: 30_000 },
      (error, stdout, stderr) => {
        done({ exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

test('a settings file with a byte that is not UTF-8 stops the run at its line and column, exit 65', async () => {
  const folder = await createTemporaryFolder({ 'in.json': input }, 'strict');
  await writeFile(
    join(folder, 'quality-evidence.config.json'),
    Buffer.concat([Buffer.from('{\n  "environment": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]),
  );

  expect(await commandInShell(folder, '$QE in.json --output q.json --quiet')).toEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'quality-evidence: the settings file "quality-evidence.config.json" is not well-formed JSON at line 2, column 22: ' +
      'invalid UTF-8 (byte 0xE9); the file must be UTF-8 text\n',
  });
  expect(await pathExists(join(folder, 'q.json'))).toBe(false);
});

test('a QE_* variable holding bytes that are not UTF-8 is a configuration error naming the variable, not its value', async () => {
  const folder = await createTemporaryFolder({ 'in.json': input }, 'strict');

  expect(await commandInShell(folder, 'QE_ENVIRONMENT="$(printf \'caf\\351\')" $QE in.json --output q.json --quiet')).toEqual({
    exitCode: 78,
    stdout: '',
    stderr:
      'quality-evidence: invalid configuration:\n  - QE_ENVIRONMENT: is not UTF-8 text: ' +
      'it holds bytes that are not valid UTF-8 (Node.js reads them as U+FFFD)\n',
  });
});

test('a flag holding bytes that are not UTF-8 is a configuration error naming the flag', async () => {
  const folder = await createTemporaryFolder({ 'in.json': input }, 'strict');

  expect(await commandInShell(folder, '$QE in.json --output q.json --quiet --environment "$(printf \'caf\\351\')"')).toEqual({
    exitCode: 78,
    stdout: '',
    stderr:
      'quality-evidence: invalid configuration:\n  - --environment: is not UTF-8 text: ' +
      'it holds bytes that are not valid UTF-8 (Node.js reads them as U+FFFD)\n',
  });
});

test.describe('execution attachments in the reporter', () => {
  // A Playwright run each in a packed project (npm pack, once per worker): a few seconds idle, 6 to 9 s measured loaded.
  test.describe.configure({ timeout: 120_000 });
  const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: './tests', reporter: [['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', quiet: true }]] });
`;

  test('an attachment whose body is not UTF-8 fails the run, naming the test, and writes no report', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': config,
      'tests/forged.spec.ts': `import { test } from '@playwright/test';
import { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE } from 'quality-evidence/reporter';

test('latin-1', async ({}, testInfo) => {
  const body = Buffer.concat([Buffer.from('{"statusCode":200,"endpoint":"GET /caf'), Buffer.from([0xe9]), Buffer.from('","responseTimeMs":1}')]);
  await testInfo.attach(EXECUTION_ATTACHMENT_NAME, { contentType: EXECUTION_CONTENT_TYPE, body });
});
`,
    });

    const outcome = await runPlaywright(project, ['test']);

    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toBe(
      'quality-evidence reporter: no report was written: the execution attachment of test "forged.spec.ts › latin-1" ' +
        '(attempt 1) is not well-formed JSON at line 1, column 39: invalid UTF-8 (byte 0xE9); the file must be UTF-8 text\n',
    );
    expect(await pathExists(join(project, 'out/quality-summary.json'))).toBe(false);
  });

  test("an attachment whose file cannot be read fails the run, naming the test and the reason, not with Node.js's own text", async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': config,
      'tests/gone.spec.ts': `import { test } from '@playwright/test';
import { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE } from 'quality-evidence/reporter';

test('gone', async ({}, testInfo) => {
  // As a merged blob report may hand one over: a file, which is not there when the reporter reads it.
  testInfo.attachments.push({ name: EXECUTION_ATTACHMENT_NAME, contentType: EXECUTION_CONTENT_TYPE, path: testInfo.outputPath('gone.json') });
});
`,
    });

    const outcome = await runPlaywright(project, ['test']);

    expect(outcome.exitCode).toBe(1);
    const path = join(project, 'test-results/gone-gone/gone.json');
    expect(outcome.stderr).toBe(
      'quality-evidence reporter: no report was written: cannot read the execution attachment of test "gone.spec.ts › ' +
        `gone" (attempt 1) ${JSON.stringify(path)}: no such file or directory (ENOENT)\n`,
    );
  });
});
