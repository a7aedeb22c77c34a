// Builds the package: the ES module build of the main tsconfig (.build/src,
// .build/reporter, and the programs and specs) and the CommonJS build of
// tsconfig.cjs.json (.build/cjs), whose package.json marks its .js files as
// CommonJS. Plain JavaScript, so that it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
// Start from no compiled code, so that no file of a renamed or deleted source lingers in the package.
for (const folder of ['.build/src', '.build/reporter', '.build/scripts', '.build/cjs', '.build/tests']) rmSync(folder, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc], { stdio: 'inherit' });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], { stdio: 'inherit' });
writeFileSync('.build/cjs/package.json', '{ "type": "commonjs" }\n');
