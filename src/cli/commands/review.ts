import type { Verdict } from '../../domain/index.js';
import { renderComment } from '../../report/comment.js';
import { reviewJson } from '../../report/json.js';
import { runReview } from '../../review.js';
import { parseFlags, required, UsageError } from '../args.js';
import type { Output } from '../output.js';
import { loadPolicy } from '../policy-from-tree.js';
import { readInputFile } from '../read-input.js';
import { telemetryFromFlags } from '../telemetry-flags.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';

const FAIL_ON = ['not-justified', 'partially-justified'] as const;

export async function reviewCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    catalog: { type: 'string' },
    config: { type: 'string' },
    snapshot: { type: 'string' },
    prometheus: { type: 'string' },
    opencost: { type: 'string' },
    at: { type: 'string' },
    window: { type: 'string' },
    format: { type: 'string', default: 'markdown' },
    'fail-on': { type: 'string' },
  });
  if (flags.format !== 'markdown' && flags.format !== 'json') {
    throw new UsageError(`--format must be markdown or json, got ${flags.format}`);
  }
  const failOn = flags['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, got ${failOn}`);
  }
  const changes = await changeSetFromArgs({
    base: required(flags.base, '--base'),
    head: required(flags.head, '--head'),
    ...(flags.repo === undefined ? {} : { repo: flags.repo }),
  });
  const policy = await loadPolicy(changes.base, flags.config);
  const catalog =
    flags.catalog === undefined ? undefined : { file: flags.catalog, text: await readInputFile('--catalog', flags.catalog) };
  const telemetry = await telemetryFromFlags(flags);
  const result = await runReview({ changes, policy, ...(catalog ? { catalog } : {}), ...(telemetry ? { telemetry } : {}) });
  out.stdout(flags.format === 'json' ? JSON.stringify(reviewJson(result), null, 2) : renderComment(result));
  return failOn !== undefined && failsOn(result.verdict, failOn) ? 1 : 0;
}

/** `--fail-on partially-justified` also fails on not-justified: it is the stricter setting. */
function failsOn(verdict: Verdict, failOn: string): boolean {
  if (failOn === 'not-justified') return verdict === 'not-justified';
  return verdict === 'not-justified' || verdict === 'partially-justified';
}
