import { diagnostic } from '../domain/diagnostic.js';
import type { Diagnostic } from '../domain/diagnostic.js';
import type { TreeReader } from '../domain/files.js';
import { DEFAULT_POLICY } from '../domain/policy.js';
import { POLICY_PATHS } from '../review/index.js';
import type { LoadedPolicy } from '../review/index.js';
import { policyFromObject } from '../workloads/policy.js';
import { loadYaml } from '../workloads/yaml-source.js';
import { ApiTreeReader } from './api-change-set.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { BlobAt, GraphqlBlobs } from './graphql-blobs.js';

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
 * Loads the policy the way Probot's `context.config` finds it: the repository's file at the base
 * commit, else the organisation's `.github` repository; then each `_extends` in turn, the nearer
 * file's top-level keys winning. Each file is validated on its own so a diagnostic names the file
 * and line it comes from. No policy anywhere means the defaults.
 */
export async function loadPolicy(
  octokit: GitHubClient,
  repo: RepoRef,
  base: TreeReader,
  blobs: GraphqlBlobs | null = null,
): Promise<LoadedPolicy> {
  const remote: Remote = { octokit, blobs };
  const first = (await readLocal(repo, base)) ?? (await readOrgDefault(remote, repo));
  if (!first) return { policy: DEFAULT_POLICY, diagnostics: [], file: null };

  const diagnostics: Diagnostic[] = [];
  const chain: ParsedFile[] = [];
  let next: PolicyFile | null = first;
  while (next) {
    const parsed = parseFile(next, diagnostics);
    chain.push(parsed);
    next = await followExtends(remote, parsed, chain, diagnostics);
  }

  // Each file's diagnostics are already in; the merged object only yields the policy.
  const { policy } = policyFromObject(first.label, mergeKeys(chain));
  return { policy, diagnostics, file: first.label };
}

async function readLocal(repo: RepoRef, base: TreeReader): Promise<PolicyFile | null> {
  for (const path of POLICY_PATHS) {
    const text = await base.read(path);
    if (text !== null) return { label: path, repo, path, text };
  }
  return null;
}

/** How files outside the pull request's repository are read. */
interface Remote {
  octokit: GitHubClient;
  blobs: GraphqlBlobs | null;
}

/**
 * The policy files a review may read, at the base commit and in the organisation's repository:
 * asked for ahead of `loadPolicy`, they share one GraphQL query with whatever else is asked then.
 */
export function policyCandidates(repo: RepoRef, baseSha: string): BlobAt[] {
  const local = POLICY_PATHS.map((path) => ({ repo, ref: baseSha, path }));
  const org = orgConfigRepo(repo);
  return org === null ? local : [...local, { repo: org, ref: null, path: POLICY_PATHS[0] }];
}

function orgConfigRepo(repo: RepoRef): RepoRef | null {
  return repo.repo === ORG_CONFIG_REPO ? null : { owner: repo.owner, repo: ORG_CONFIG_REPO };
}

async function readOrgDefault(remote: Remote, repo: RepoRef): Promise<PolicyFile | null> {
  const orgRepo = orgConfigRepo(repo);
  return orgRepo === null ? null : readRemote(remote, orgRepo, POLICY_PATHS[0]);
}

async function readRemote({ octokit, blobs }: Remote, repo: RepoRef, path: string): Promise<PolicyFile | null> {
  // Shared configuration is read from its repository's default branch, as Probot does.
  const text = await new ApiTreeReader(octokit, repo, null, blobs).read(path);
  return text === null ? null : { label: `${repo.owner}/${repo.repo}:${path}`, repo, path, text };
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

async function followExtends(
  remote: Remote,
  parsed: ParsedFile,
  chain: ParsedFile[],
  diagnostics: Diagnostic[],
): Promise<PolicyFile | null> {
  const { file, extendsValue, extendsLine } = parsed;
  if (extendsValue === undefined || extendsValue === null) return null;
  const problem = (message: string): null => {
    diagnostics.push(diagnostic(file.label, extendsLine, 'error', message));
    return null;
  };
  const match = typeof extendsValue === 'string' ? EXTENDS_RE.exec(extendsValue) : null;
  if (!match) {
    return problem(`_extends must be "repo", "owner/repo" or "owner/repo:path.yml", not ${JSON.stringify(extendsValue)}`);
  }
  const repo = { owner: match[1] ?? file.repo.owner, repo: match[2] ?? '' };
  const path = match[3] ?? POLICY_PATHS[0];
  const label = `${repo.owner}/${repo.repo}:${path}`;
  if (chain.some((p) => sameFile(p.file, repo, path))) {
    return problem(`_extends: ${label} was already loaded; the loop is ignored`);
  }
  if (chain.length >= MAX_EXTENDS) return problem(`_extends: more than ${MAX_EXTENDS} files chained; ${label} is ignored`);
  const target = await readRemote(remote, repo, path);
  if (!target) {
    diagnostics.push(diagnostic(file.label, extendsLine, 'warning', `_extends: ${label} does not exist or cannot be read`));
  }
  return target;
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
