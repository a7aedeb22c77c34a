import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repositoryRoot } from './runProgram.js';

// The runner specs start the compiled programs in child processes, exactly
// as `npm start` does, and the package specs pack both builds, so the suite
// builds the project once first.
export default function globalSetup(): void {
  execFileSync(process.execPath, [join(repositoryRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
}
