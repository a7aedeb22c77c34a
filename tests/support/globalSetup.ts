import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot, TEMPORARY_FOLDER_PREFIX } from './runProgram.js';

// The runner specs start the compiled programs in child processes, exactly
// as `npm start` does, and the package specs pack both builds, so the suite
// builds the project once first.
//
// The returned function is the suite's global teardown: every spec removes
// what it creates (tests/support/test.ts), and the teardown proves it, failing
// the run when the system's temporary folder holds a `quality-evidence-`
// entry that was not there before.
export default function globalSetup(): () => void {
  const before = new Set(temporaryEntries());
  execFileSync(process.execPath, [join(repositoryRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
  return () => {
    const left = temporaryEntries().filter((entry) => !before.has(entry));
    if (left.length > 0) throw new Error(`the suite left ${left.length} entries in ${tmpdir()}: ${left.slice(0, 10).join(', ')}`);
  };
}

function temporaryEntries(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(TEMPORARY_FOLDER_PREFIX));
}
