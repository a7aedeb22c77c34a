import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startPetstoreServer } from './petstoreServer.js';
import { createPlaywrightProject, runPlaywright } from './playwrightProject.js';
import type { ProgramOutcome } from './runProgram.js';
import { repositoryRoot } from './runProgram.js';

/** The public Petstore-expanded document (fixtures/openapi/README.md), the suite's `openapi` setting. */
export const PETSTORE_DOCUMENT = join(repositoryRoot, 'fixtures/openapi/openapi-3.0-petstore-expanded.yaml');

/** A recorded run of the Petstore suite: where it ran and what it wrote. */
export interface PetstoreSuiteRun {
  /** The consumer project's folder (its playwright.config.ts, tests/ and out/). */
  readonly project: string;
  /** The run's report, out/quality-summary.json in the project. */
  readonly reportPath: string;
  /** The run's `openapi` document, openapi.yaml in the project: the fixture, unchanged. */
  readonly documentPath: string;
  /** What Playwright printed and its exit code. */
  readonly outcome: ProgramOutcome;
}

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  retries: 0,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['list'], ['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', openapi: 'openapi.yaml' }]],
});
`;

/**
 * The suite, as a team writes one for this API: three spec files, five
 * tests, each calling the store through quality-evidence/test's `request`.
 * They call GET /pets, POST /pets and GET /pets/{id}; no test calls
 * DELETE /pets/{id}. Workers: 1, so the store's pets are the same each run.
 */
export const PETSTORE_SPECS: Readonly<Record<string, string>> = {
  'tests/pets-list.spec.ts': `import { test, expect } from 'quality-evidence/test';

test('lists every pet', async ({ request }) => {
  const response = await request.get('/v2/pets');
  expect(response.status()).toBe(200);
  const pets = await response.json();
  expect(pets.map((pet: { name: string }) => pet.name)).toEqual(expect.arrayContaining(['Rex', 'Tom', 'Nemo']));
  for (const pet of pets) expect(pet).toEqual(expect.objectContaining({ id: expect.any(Number), name: expect.any(String) }));
});

test('lists the pets of a tag, at most one', async ({ request }) => {
  const response = await request.get('/v2/pets', { params: { tags: 'fish', limit: 1 } });
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual([{ id: 3, name: 'Nemo', tag: 'fish' }]);
});
`,
  'tests/pets-create.spec.ts': `import { test, expect } from 'quality-evidence/test';

test('adds a pet with a tag', async ({ request }) => {
  const response = await request.post('/v2/pets', { data: { name: 'Felix', tag: 'cat' } });
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ id: expect.any(Number), name: 'Felix', tag: 'cat' });
});

test('adds a pet without a tag and reads it back', async ({ request }) => {
  const created = await request.post('/v2/pets', { data: { name: 'Polly' } });
  expect(created.status()).toBe(200);
  const { id } = await created.json();
  const read = await request.get(\`/v2/pets/\${id}\`);
  expect(read.status()).toBe(200);
  expect(await read.json()).toEqual({ id, name: 'Polly' });
});
`,
  'tests/pets-read.spec.ts': `import { test, expect } from 'quality-evidence/test';

test('reads a pet by its id', async ({ request }) => {
  const response = await request.get('/v2/pets/1');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ id: 1, name: 'Rex', tag: 'dog' });
});
`,
};

let suiteRun: Promise<PetstoreSuiteRun> | undefined;

/**
 * Runs the Petstore suite once per worker: the store started on 127.0.0.1,
 * a consumer project with the packed package and the fixture as
 * `openapi.yaml`, Playwright run in it, the store closed. Specs that extend
 * this evidence (contract-diff --report, conditions met) take the same run.
 */
export function recordPetstoreSuite(): Promise<PetstoreSuiteRun> {
  suiteRun ??= (async () => {
    const server = await startPetstoreServer();
    try {
      const project = await createPlaywrightProject({
        'playwright.config.ts': config,
        'openapi.yaml': await readFile(PETSTORE_DOCUMENT, 'utf8'),
        ...PETSTORE_SPECS,
      });
      const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.origin });
      return { project, reportPath: join(project, 'out/quality-summary.json'), documentPath: join(project, 'openapi.yaml'), outcome };
    } finally {
      await server.close();
    }
  })();
  return suiteRun;
}
