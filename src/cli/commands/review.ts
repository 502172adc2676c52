import { existsSync } from 'node:fs';
import type { ChangeSet, ReviewResult } from '../../domain/index.js';
import { ApiChangeSet } from '../../github/index.js';
import { describeFailure } from '../../github/index.js';
import { loadPolicy as loadPolicyFromGitHub } from '../../github/index.js';
import { loadPull } from '../../github/index.js';
import { tokenClient } from '../../github/index.js';
import { withUnlistedFiles } from '../../github/index.js';
import { mayGrowCapacity, outageWords, renderComment, reviewJson } from '../../report/index.js';
import { runReview, type LoadedPolicy } from '../../review/index.js';
import { parseFlags, required, UsageError } from '../args.js';
import { headCheckout, readGivenCatalog, readOperatorInput } from '../checkout-inputs.js';
import { jsonOutput } from '../output.js';
import type { Output } from '../output.js';
import { loadPolicy } from '../policy-from-tree.js';
import { parsePrRef } from '../pr-ref.js';
import { terminalProgress, withProgress } from '../progress.js';
import { readInputFile } from '../read-input.js';
import { telemetryFromFlags } from '../telemetry-flags.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';

const FAIL_ON = ['not-justified', 'partially-justified'] as const;

export const REVIEW_HELP = `Usage: gpu-justify review --base <dir|ref> --head <dir|ref> [--repo <git dir>]
       gpu-justify review --pr <owner/repo#number>
                          [--catalog <file>] [--config <file>]
                          [--snapshot <file> | --prometheus <url> [--opencost <url>]]
                          [--at <ISO-8601 time>] [--window <duration>]
                          [--format markdown|json] [--fail-on not-justified|partially-justified]
                          [--allow-insufficient-evidence]

Reviews the change as the App does and prints the comment (or JSON) without posting anything.

Options:
  --base <dir|ref>    the repository before the change: a directory, or a git ref of --repo
  --head <dir|ref>    the repository after the change: a directory, or a git ref of --repo
  --repo <git dir>    the git repository the refs name (default: the current directory)
  --pr <owner/repo#n> a pull request on GitHub, read through the API as the App reads it (the
                      policy from its base branch); GITHUB_TOKEN authenticates, GITHUB_API_URL
                      points at GitHub Enterprise; nothing is posted
  --catalog <file>    the workload catalog (default: the policy's catalog, gpu-workloads.yaml,
                      read from the head side)
  --config <file>     the policy (default: .github/gpu-justify.yml read from the base side)
  --snapshot <file>   replay telemetry recorded by gpu-justify snapshot (no network)
  --prometheus <url>  query this Prometheus-compatible API live; credentials and extra headers come
                      from PROMETHEUS_BEARER_TOKEN / PROMETHEUS_BASIC_AUTH / PROMETHEUS_HEADERS
  --opencost <url>    with --prometheus: GPU cost from this OpenCost API
  --at <time>         end of the telemetry window (default: now, or the snapshot's time)
  --window <duration> telemetry look-back, e.g. 14d or 36h (default: the policy's window)
  --format <format>   markdown (default): the PR comment; json: the result as data
  --fail-on <verdict> exit 1 on this verdict: not-justified, or partially-justified (which also
                      fails on not-justified); either also fails on insufficient-evidence (files
                      that could not be read or followed, evidence missing) and, while the policy
                      is invalid, on any change that may add GPUs, so a gate is never passed by
                      what could not be checked
  --allow-insufficient-evidence
                      with --fail-on: do not fail on insufficient-evidence (an explicit opt-out)

Without --snapshot or --prometheus the review uses the infra files and the catalog only.
Exit codes: 0 the review ran (whatever the verdict), 1 --fail-on matched, 2 bad usage or input.

Example: gpu-justify review --base origin/main --head HEAD --fail-on not-justified`;

export async function reviewCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    pr: { type: 'string' },
    catalog: { type: 'string' },
    config: { type: 'string' },
    snapshot: { type: 'string' },
    prometheus: { type: 'string' },
    opencost: { type: 'string' },
    at: { type: 'string' },
    window: { type: 'string' },
    format: { type: 'string', default: 'markdown' },
    'fail-on': { type: 'string' },
    'allow-insufficient-evidence': { type: 'boolean' },
  });
  if (flags.format !== 'markdown' && flags.format !== 'json') {
    throw new UsageError(`--format must be markdown or json, got ${flags.format}`);
  }
  const failOn = flags['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, got ${failOn}`);
  }
  const allowInsufficient = flags['allow-insufficient-evidence'] === true;
  if (allowInsufficient && failOn === undefined) throw new UsageError('--allow-insufficient-evidence only means something with --fail-on');
  const side = await (flags.pr === undefined ? localSides(flags) : pullRequestSides(flags.pr, flags));
  // A policy or snapshot file inside the checkout under review is the pull request's to write: read from the base side.
  const checkout = { headRoot: side.headRoot ?? null, base: side.changes.base };
  const operatorInput = (flag: string, file: string) => readOperatorInput(flag, file, checkout, (text) => out.stderr(text));
  const gathered = await telemetryFromFlags(flags, operatorInput);
  // Live queries can take a while: show them moving on a terminal.
  const progress = gathered && flags.prometheus !== undefined ? withProgress(gathered.source, terminalProgress()) : null;
  const telemetry = gathered && progress ? { ...gathered, source: progress.source } : gathered;
  const catalog = flags.catalog === undefined ? undefined : await readGivenCatalog(flags.catalog, checkout);
  const config =
    flags.config === undefined
      ? undefined
      : { file: flags.config, text: (await operatorInput('--config', flags.config)) ?? (await readInputFile('--config', flags.config)) };
  const policy = config === undefined ? await side.policy() : await loadPolicy(side.changes.base, config);
  const reviewed = await runReview({
    changes: side.changes,
    policy,
    ...(side.headSha === undefined ? {} : { headSha: side.headSha }),
    ...(side.baseBranch === undefined ? {} : { baseBranch: side.baseBranch }),
    ...(catalog ? { catalog } : {}),
    ...(telemetry ? { telemetry } : {}),
  });
  const result = side.complete ? await side.complete(reviewed) : reviewed;
  progress?.done();
  // The comment says it too, but a terminal or a CI log must not read a review that measured nothing as measured.
  const measured = result.context.telemetry;
  if (measured?.outage !== undefined) out.stderr(`gpu-justify: not measured: ${outageWords(measured.source, measured.outage, true)}`);
  out.stdout(
    flags.format === 'json'
      ? jsonOutput(reviewJson(result))
      : renderComment(result, { surface: 'cli', ...(side.headUrl === undefined ? {} : { headUrl: side.headUrl }) }),
  );
  return failOn !== undefined && failsOn(result, failOn, allowInsufficient) ? 1 : 0;
}

interface Sides {
  changes: ChangeSet;
  policy: () => Promise<LoadedPolicy>;
  headSha?: string;
  headUrl?: string;
  /** The base branch or ref the policy is read from, when the base is not a directory. */
  baseBranch?: string;
  /** Where the head side is checked out on this machine, for a local review. */
  headRoot?: string | null;
  /** What the sides add once the review has run: changed files GitHub did not list. */
  complete?: (result: ReviewResult) => Promise<ReviewResult>;
}

async function localSides(flags: { base?: string | undefined; head?: string | undefined; repo?: string | undefined }): Promise<Sides> {
  const head = required(flags.head, '--head');
  const changes = await changeSetFromArgs({
    base: required(flags.base, '--base'),
    head,
    ...(flags.repo === undefined ? {} : { repo: flags.repo }),
  });
  return {
    changes,
    headRoot: await headCheckout(head, flags.repo),
    policy: () => loadPolicy(changes.base),
    // A ref names where the policy is read; a directory names no branch.
    ...(flags.base !== undefined && !existsSync(flags.base) ? { baseBranch: flags.base } : {}),
  };
}

/**
 * A pull request on GitHub, read through the API exactly as the App reads it (base-branch
 * policy, `_extends` included) — the dry run before installing the App. Nothing is posted.
 */
async function pullRequestSides(ref: string, flags: { base?: string | undefined; head?: string | undefined }): Promise<Sides> {
  if (flags.base !== undefined || flags.head !== undefined) throw new UsageError('give --pr or --base/--head, not both');
  const { owner, repo, number } = parsePrRef(ref);
  const octokit = tokenClient();
  const { target } = await loadPull(octokit, { owner, repo }, number).catch((err: unknown) => {
    throw new UsageError(`cannot read pull request ${owner}/${repo}#${number}: ${describeFailure(err)}`);
  });
  const changes = new ApiChangeSet(octokit, target);
  return {
    changes,
    policy: () => loadPolicyFromGitHub(octokit, target.base, changes.base),
    headSha: target.headSha,
    ...(target.baseRef === undefined ? {} : { baseBranch: target.baseRef }),
    ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
    complete: async (result) => withUnlistedFiles(result, await changes.unlistedFiles()),
  };
}

/**
 * `--fail-on partially-justified` also fails on not-justified: it is the stricter setting. Both
 * fail closed, as the App's enforce-mode check does: on insufficient evidence (unless opted out)
 * and on an invalid policy when the change may add GPUs.
 */
function failsOn(result: ReviewResult, failOn: string, allowInsufficient: boolean): boolean {
  const { verdict } = result;
  if (result.context.policyErrors?.length && mayGrowCapacity(result)) return true;
  if (verdict === 'insufficient-evidence') return !allowInsufficient;
  if (failOn === 'not-justified') return verdict === 'not-justified';
  return verdict === 'not-justified' || verdict === 'partially-justified';
}
