import { redactSecrets } from '../util/redact.js';
import { visible } from '../domain/visible.js';
import { main } from './main.js';

// The process entry point, kept apart from main() so tests can call main() without exiting.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const what = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`gpu-justify: unexpected failure: ${visible(redactSecrets(what))}\n`);
    process.exitCode = 2;
  },
);
