import { diagnostic } from '../../domain/diagnostic.js';
import type { Diagnostic } from '../../domain/diagnostic.js';
import { DEFAULT_POLICY } from '../../domain/policy.js';
import { POLICY_PATHS, readLocalPolicy, readPolicyPath } from '../../review/index.js';
import type { LoadedPolicy } from '../../review/index.js';
import { policyFromObject } from '../../workloads/index.js';
import { loadYaml } from '../../workloads/index.js';
import { statusOf } from './tree-reader.js';
import { sideReader } from './side-probes.js';
import { DefaultHeads } from './default-heads.js';
import type { PolicySide } from './side-probes.js';
import type { GitHubClient, RepoRef } from './client.js';
import { describeFailure } from './errors.js';
import type { BlobAt } from './graphql-blob-query.js';
import type { GraphqlBlobs } from './graphql-blobs.js';

/** Organisations keep shared settings in a repository of this name (Probot's convention). */
const ORG_CONFIG_REPO = '.github';

/** An `_extends` chain longer than this is a mistake, not a design. */
const MAX_EXTENDS = 5;

/** Probot's `_extends` syntax: `repo`, `owner/repo` or `owner/repo:path.yml`. */
const EXTENDS_RE = /^(?:([a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38})\/)?([-_.\w\d]+)(?::([-_./\w\d]+\.ya?ml))?$/i;

interface PolicyFile {
  /** The name used in diagnostics: the path for the repo's own file, `owner/repo:path` otherwise. */
  label: string;
  repo: RepoRef;
  path: string;
  text: string;
}

interface ParsedFile {
  file: PolicyFile;
  /** The file's keys without `_extends`; null when it is not a YAML mapping. */
  keys: Record<string, unknown> | null;
  extendsValue: unknown;
  extendsLine: number | null;
}

/**
 * Loads the policy the way @probot/octokit-plugin-config (behind Probot's `context.config`) finds
 * it: the repository's file at the base commit, else the organisation's `.github` repository; then
 * each `_extends` in turn, the nearer file's top-level keys winning. Each file is validated on its
 * own so a diagnostic names the file and line it comes from.
 *
 * Where Probot reads a 404 as "no file", this fails closed: a policy file that the chain names but
 * that cannot be read (absent, a repository the installation does not include, 403, 5xx after the
 * client's retries, an odd answer, invalid YAML, a loop, a chain too long) is an error, so the
 * review runs as in enforce mode and no override is accepted. No policy anywhere means the
 * defaults only when the App can tell there is none (see `readOrgDefault`).
 */
export async function loadPolicy(
  octokit: GitHubClient,
  repo: RepoRef,
  base: PolicySide,
  blobs: GraphqlBlobs | null = null,
): Promise<LoadedPolicy> {
  const remote: Remote = { octokit, blobs, heads: new DefaultHeads(octokit, blobs) };
  const found = await readLocalPolicy(base);
  if (found.kind === 'unread') return found.loaded;
  const local: PolicyFile | null = found.kind === 'file' ? { label: found.path, repo, path: found.path, text: found.text } : null;
  const org = local ? null : await readOrgDefault(remote, repo);
  if (org?.kind === 'unread') return { policy: DEFAULT_POLICY, diagnostics: [org.problem], file: null, unread: [org.problem.file] };
  const first = local ?? (org?.kind === 'file' ? org.file : null);
  if (!first) return { policy: DEFAULT_POLICY, diagnostics: [], file: null };

  const diagnostics: Diagnostic[] = [];
  const unread: string[] = [];
  const chain: ParsedFile[] = [];
  let next: PolicyFile | null = first;
  while (next) {
    const parsed = parseFile(next, diagnostics);
    if (parsed.keys === null) unread.push(next.label);
    chain.push(parsed);
    next = await followExtends(remote, parsed, chain, diagnostics, unread);
  }

  // Each file's diagnostics are already in; the merged object only yields the policy.
  const { policy } = policyFromObject(first.label, mergeKeys(chain));
  return { policy, diagnostics, file: first.label, ...(unread.length > 0 ? { unread } : {}) };
}

/** How files outside the pull request's repository are read: each repository through one commit. */
interface Remote {
  octokit: GitHubClient;
  blobs: GraphqlBlobs | null;
  heads: DefaultHeads;
}

/**
 * The policy files a review may read at the base commit: asked for ahead of `loadPolicy`, they
 * share one GraphQL query with whatever else is asked then. Of the organisation's `.github`, one
 * path at its default branch rides along only for what the answer says of the repository (GitHub
 * answers null for one it does not show, its 404): a repository without a policy of its own then
 * learns that without a request. Its files themselves are read through the commit its default
 * branch resolves to, known only later (see `readRemote`).
 */
export function policyCandidates(repo: RepoRef, baseSha: string): BlobAt[] {
  const local = POLICY_PATHS.map((path) => ({ repo, ref: baseSha, path }));
  const org = orgConfigRepo(repo);
  return org === null ? local : [...local, { repo: org, ref: null, path: POLICY_PATHS[0] }];
}

/**
 * The directories whose entries tell what stands at each policy path (a file, a directory, a link
 * or a submodule), asked in the same query as `policyCandidates`: GraphQL answers a submodule at
 * a file's path with nothing, as if no file were there.
 */
export function policyTrees(repo: RepoRef, baseSha: string): BlobAt[] {
  const dirs = [...new Set(['', ...POLICY_PATHS.map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))))])];
  return dirs.map((path) => ({ repo, ref: baseSha, path }));
}

function orgConfigRepo(repo: RepoRef): RepoRef | null {
  return repo.repo === ORG_CONFIG_REPO ? null : { owner: repo.owner, repo: ORG_CONFIG_REPO };
}

/**
 * The organisation's default, for a repository without a policy of its own. GitHub answers 404
 * alike for a `.github` repository that does not exist and for one the installation does not
 * include, so a 404 for the repository means "no policy" only where the installation covers every
 * repository of the owner; elsewhere (an installation on selected repositories, the Action's or a
 * person's token) the App cannot tell, and the policy is unread. Both spellings are looked for,
 * as in the repository itself: an organisation's `gpu-justify.yaml` is no less its policy.
 */
async function readOrgDefault(
  remote: Remote,
  repo: RepoRef,
): Promise<{ kind: 'file'; file: PolicyFile } | { kind: 'unread'; problem: Diagnostic } | null> {
  const orgRepo = orgConfigRepo(repo);
  if (orgRepo === null) return null;
  for (const path of POLICY_PATHS) {
    const found = await readOrgPath(remote, orgRepo, path);
    if (found !== null) return found;
  }
  return null;
}

async function readOrgPath(
  remote: Remote,
  orgRepo: RepoRef,
  path: string,
): Promise<{ kind: 'file'; file: PolicyFile } | { kind: 'unread'; problem: Diagnostic } | null> {
  const read = await readRemote(remote, orgRepo, path);
  const label = labelOf(orgRepo, path);
  switch (read.kind) {
    case 'file':
      return read;
    case 'absent':
      return null;
    case 'unseen': {
      if ((await repositorySelection(remote.octokit)) === 'all') return null;
      const problem =
        `this repository has no ${POLICY_PATHS[0]}, and GitHub answers 404 for ${orgRepo.owner}/${orgRepo.repo} both when it does not ` +
        `exist and when the App's installation does not include it: add ${POLICY_PATHS[0]} here (\`mode: advise\` for advice only), ` +
        `or add ${orgRepo.owner}/${orgRepo.repo} to the App's installation (repository permission Contents: read)`;
      return { kind: 'unread', problem: diagnostic(label, null, 'error', problem) };
    }
    case 'failed':
      return { kind: 'unread', problem: diagnostic(label, null, 'error', `${label} cannot be read: ${read.why}`) };
  }
}

/** What reading a policy file outside the pull request's repository found. */
type RemoteRead =
  | { kind: 'file'; file: PolicyFile }
  /** The repository is there for the App to see, and has no such file. */
  | { kind: 'absent' }
  /** GitHub answers 404 for the repository itself: not there, or not in the installation. */
  | { kind: 'unseen' }
  /** GitHub refused (403), failed (5xx, after the client's retries) or answered oddly. */
  | { kind: 'failed'; why: string };

async function readRemote(remote: Remote, repo: RepoRef, path: string): Promise<RemoteRead> {
  const { octokit, blobs, heads } = remote;
  try {
    // Shared configuration is read from its repository's default branch, as Probot does, but
    // through the one commit the branch pointed at when this review first asked: every layer and
    // every probe of the same repository then reads one state of it, whatever is pushed meanwhile.
    // The 404 that resolves no commit is the repository's own, so it also tells "not seen".
    const head = await heads.of(repo);
    if (head.kind === 'unseen') return { kind: 'unseen' };
    if (head.kind === 'empty') return { kind: 'absent' };
    // Through the probes the base's own policy is read with: a path there that gives no text (a
    // submodule, a link, a directory) is a file that cannot be read, never "no file".
    const read = await readPolicyPath(sideReader(octokit, repo, head.sha, blobs), path);
    if (typeof read === 'string') return { kind: 'failed', why: read };
    if (read !== null) return { kind: 'file', file: { label: labelOf(repo, path), repo, path, text: read.text } };
    return { kind: 'absent' };
  } catch (err) {
    return { kind: 'failed', why: refusal(err, repo) };
  }
}

/** `all` when the installation covers every repository of its owner; null when the client is no installation. */
async function repositorySelection(octokit: GitHubClient): Promise<'all' | 'selected' | null> {
  try {
    // The installation token's own answer (cached by the App's auth), not another request.
    const auth = (await octokit.auth({ type: 'installation' })) as { repositorySelection?: unknown };
    return auth.repositorySelection === 'all' || auth.repositorySelection === 'selected' ? auth.repositorySelection : null;
  } catch {
    return null;
  }
}

/** Why a policy file could not be read, and what access the App needs to read it. */
function refusal(err: unknown, repo: RepoRef): string {
  const status = statusOf(err);
  const name = `${repo.owner}/${repo.repo}`;
  // A spent rate limit is no missing access: saying "needs read access" would send the reader astray.
  if (status === 429 || (status === 403 && /rate limit/i.test(messageOf(err)))) {
    return `GitHub's rate limit stopped the read (${status}); the review runs as in enforce mode until ${name} can be read`;
  }
  if (status === 401 || status === 403) {
    return `GitHub refused the App (${status}); it needs read access to ${name} (repository permission Contents: read, the repository in its installation)`;
  }
  if (status !== undefined && status >= 500)
    return `GitHub failed (${status}) after retries; the review runs as in enforce mode until it can be read`;
  return describeFailure(err);
}

function messageOf(err: unknown): string {
  const message = (err as { message?: unknown; response?: { data?: { message?: unknown } } } | null)?.response?.data?.message;
  return typeof message === 'string' ? message : err instanceof Error ? err.message : '';
}

function labelOf(repo: RepoRef, path: string): string {
  return `${repo.owner}/${repo.repo}:${path}`;
}

function parseFile(file: PolicyFile, diagnostics: Diagnostic[]): ParsedFile {
  const source = loadYaml(file.label, file.text);
  diagnostics.push(...source.diagnostics);
  if (source.kind !== 'value') {
    return { file, keys: source.kind === 'empty' ? {} : null, extendsValue: undefined, extendsLine: null };
  }
  const value = source.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    diagnostics.push(...policyFromObject(file.label, value, source.lineOf).diagnostics);
    return { file, keys: null, extendsValue: undefined, extendsLine: null };
  }
  const { _extends: extendsValue, ...keys } = value as Record<string, unknown>;
  diagnostics.push(...policyFromObject(file.label, keys, source.lineOf).diagnostics);
  return { file, keys, extendsValue, extendsLine: source.lineOf(['_extends']) };
}

/** The file `_extends` names, read; null at the chain's end or where it cannot go on (an error, and `unread`). */
async function followExtends(
  remote: Remote,
  parsed: ParsedFile,
  chain: ParsedFile[],
  diagnostics: Diagnostic[],
  unread: string[],
): Promise<PolicyFile | null> {
  const { file, extendsValue, extendsLine } = parsed;
  if (extendsValue === undefined || extendsValue === null) return null;
  const problem = (target: string, message: string): null => {
    diagnostics.push(
      diagnostic(file.label, extendsLine, 'error', `${message}; the policy is not known whole, so the review runs as in enforce mode`),
    );
    unread.push(target);
    return null;
  };
  const match = typeof extendsValue === 'string' ? EXTENDS_RE.exec(extendsValue) : null;
  if (!match) {
    return problem(file.label, `_extends must be "repo", "owner/repo" or "owner/repo:path.yml", not ${JSON.stringify(extendsValue)}`);
  }
  const repo = { owner: match[1] ?? file.repo.owner, repo: match[2] ?? '' };
  const path = match[3] ?? POLICY_PATHS[0];
  const label = labelOf(repo, path);
  // A path that climbs or is spelt round (`../x.yml`, `a//b.yml`) names no file GitHub would serve as asked.
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    return problem(label, `_extends: ${label} is no plain path inside ${repo.owner}/${repo.repo} (no \`.\`, \`..\` or empty part)`);
  }
  if (chain.some((p) => sameFile(p.file, repo, path))) return problem(label, `_extends: ${label} was already loaded (a loop)`);
  if (chain.length >= MAX_EXTENDS) return problem(label, `_extends: more than ${MAX_EXTENDS} files chained at ${label}`);
  const target = await readRemote(remote, repo, path);
  switch (target.kind) {
    case 'file':
      return target.file;
    case 'absent':
      return problem(label, `_extends: ${label} does not exist (${repo.owner}/${repo.repo} has no such file on its default branch)`);
    case 'unseen':
      return problem(
        label,
        `_extends: ${label} cannot be read: GitHub answers 404 for ${repo.owner}/${repo.repo}, as it does for a repository that does ` +
          `not exist or that the App's installation does not include; add it to the installation (repository permission Contents: read)`,
      );
    case 'failed':
      return problem(label, `_extends: ${label} cannot be read: ${target.why}`);
  }
}

function sameFile(file: PolicyFile, repo: RepoRef, path: string): boolean {
  return (
    file.repo.owner.toLowerCase() === repo.owner.toLowerCase() &&
    file.repo.repo.toLowerCase() === repo.repo.toLowerCase() &&
    file.path === path
  );
}

/** Probot's merge: shallow, the nearer file's top-level keys winning. */
function mergeKeys(chain: ParsedFile[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const { keys } of [...chain].reverse()) {
    for (const [key, value] of Object.entries(keys ?? {})) {
      // Assigning `__proto__` would swap the object's prototype; such keys are reported per file.
      if (UNSAFE_KEYS.has(key)) continue;
      merged[key] = value;
    }
  }
  return merged;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
