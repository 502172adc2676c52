import { runActionEntry } from './entry.js';

// Bundled into action/dist/index.mjs by scripts/build-action.mjs.
runActionEntry().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`gpu-justify: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
