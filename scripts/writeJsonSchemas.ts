import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JSON_SCHEMA_FILES, createQualityEvidenceJsonSchemas } from '../src/report/jsonSchemas.js';
import { runCli } from '../src/cli/runCli.js';

// npm run schemas: writes the published JSON Schemas into schemas/, where the
// package ships them. A spec checks that the committed files are current.
await runCli('quality-evidence schemas', async () => {
  const schemas = createQualityEvidenceJsonSchemas();
  await mkdir('schemas', { recursive: true });
  for (const [name, file] of Object.entries(JSON_SCHEMA_FILES)) {
    await writeFile(join('schemas', file), `${JSON.stringify(schemas[name as keyof typeof schemas], null, 2)}\n`);
    process.stdout.write(`wrote schemas/${file}\n`);
  }
});
