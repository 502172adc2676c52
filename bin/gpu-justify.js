#!/usr/bin/env node
// Runs the compiled CLI; `npm ci` builds dist/ through the prepare script.
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/cli/run.js', import.meta.url))) {
  process.stderr.write('gpu-justify: dist/ is missing; run `npm ci` (or `npm run build`) first\n');
  process.exit(2);
}
await import('../dist/cli/run.js');
