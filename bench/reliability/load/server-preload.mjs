// Loaded with `node --import` into the App's server process by the load bench, before Probot.
// 1. Records unhandled rejections and uncaught exceptions on stderr, so the bench can count them
//    (listening also keeps one from ending the process, so every one of them is seen).
// 2. With BENCH_WRITE_SPACING_MS set, changes the spacing octokit's throttling plugin keeps
//    between write requests (1,000 ms) and between writes that notify people (3,000 ms: new
//    issue and PR comments, PR reviews), both shared by every installation of the process.
//    Writes stay one at a time; only the wait between them changes, so 2,000 deliveries fit a
//    bench.
import { createRequire } from 'node:module';

const report = (kind) => (reason) => {
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}\n${reason.stack ?? ''}` : String(reason);
  process.stderr.write(`RELIABILITY-${kind} ${JSON.stringify(text)}\n`);
};
process.on('unhandledRejection', report('UNHANDLED-REJECTION'));
process.on('uncaughtException', report('UNCAUGHT-EXCEPTION'));

const spacing = process.env.BENCH_WRITE_SPACING_MS;
if (spacing !== undefined && spacing !== '') {
  const require = createRequire(createRequire(import.meta.url).resolve('@octokit/plugin-throttling'));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- require() is untyped; the cast names the module's type.
  const Bottleneck = /** @type {typeof import('bottleneck').default} */ (require('bottleneck/light.js'));
  const Group = Bottleneck.Group;
  const SPACED = new Set(['octokit-write', 'octokit-notifications']);
  class SpacedGroup extends Group {
    /** @param {import('bottleneck').default.ConstructorOptions} options */
    constructor(options = {}) {
      super(SPACED.has(options.id) ? { ...options, minTime: Number(spacing) } : options);
    }
  }
  Bottleneck.Group = SpacedGroup;
  Bottleneck.prototype.Group = SpacedGroup;
  process.stderr.write(`RELIABILITY-WRITE-SPACING ${Number(spacing)}\n`);
}
