import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { repositoryRoot } from './runProgram.js';

// The `build` project, which the e2e and stress lanes depend on: their specs
// start the compiled programs in child processes, exactly as `npm start`
// does, and pack both builds. The build is skipped when every source is
// byte for byte what it was at the last build, and redone from scratch when
// one is not (scripts/build.mjs), so a spec never runs stale code.
test('.build holds every source as it is now', () => {
  // Two compilations on a busy machine can take minutes.
  test.setTimeout(600_000);
  execFileSync(process.execPath, [join(repositoryRoot, 'scripts/build.mjs'), '--if-changed'], { stdio: 'inherit' });
});
