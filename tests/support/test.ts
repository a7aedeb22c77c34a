import { test as base } from '@playwright/test';
import { removeTemporaryFolders } from './runProgram.js';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, with one automatic worker fixture: when a worker ends
 * (after its last test, or after a failure, when Playwright replaces it),
 * every temporary folder it made with `createTemporaryFolder` is removed.
 * Every spec imports `test` from here, and the suite's global teardown
 * checks that the run's own temporary folder is empty
 * (tests/support/globalSetup.ts).
 */
export const test = base.extend<object, { temporaryFolders: undefined }>({
  temporaryFolders: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern: none
    async ({}, use) => {
      await use(undefined);
      await removeTemporaryFolders();
    },
    // A worker that made a hundred Playwright projects removes them all here: on a loaded machine that outlasts 30 s.
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
});
