import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

// The runner specs start the compiled programs in child processes, exactly
// as `npm start` does, so the suite compiles the project once first.
export default function globalSetup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc], { stdio: 'inherit' });
}
