// Loaded with `node --import` into the App's server process by the load bench, before Probot.
// 1. Records unhandled rejections and uncaught exceptions on stderr, so the bench can count them
//    (listening also keeps one from ending the process, so every one of them is seen).
// 2. With BENCH_WRITE_SPACING_MS set (the App's own spacing comes from GPU_JUSTIFY_WRITE_SPACING_MS,
//    set beside it; the production client stands these limiters down), changes the spacing octokit's throttling plugin keeps
//    between write requests (1,000 ms) and between writes that notify people (3,000 ms: new
//    issue and PR comments, PR reviews), both kept per installation (Probot keys them so) and,
//    with REDIS_URL, shared by every replica through Redis.
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
  const SPACED = new Set(['octokit-write', 'octokit-notifications']);
  /** @param {{ Group: typeof import('bottleneck').default.Group, prototype: { Group: unknown } }} Bottleneck */
  const space = (Bottleneck) => {
    const Group = Bottleneck.Group;
    class SpacedGroup extends Group {
      /** @param {import('bottleneck').default.ConstructorOptions} options */
      constructor(options = {}) {
        super(SPACED.has(options.id) ? { ...options, minTime: Number(spacing) } : options);
      }
    }
    Bottleneck.Group = SpacedGroup;
    Bottleneck.prototype.Group = SpacedGroup;
  };
  // The light build without Redis; with REDIS_URL Probot hands the plugin the full build, clustered.
  const throttling = createRequire(createRequire(import.meta.url).resolve('@octokit/plugin-throttling'));
  const probot = createRequire(createRequire(import.meta.url).resolve('probot'));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- require() is untyped.
  space(throttling('bottleneck/light.js'));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- require() is untyped.
  space(probot('bottleneck'));
  process.stderr.write(`RELIABILITY-WRITE-SPACING ${Number(spacing)}\n`);
}
