import type { Policy } from '../../domain/policy.js';
import { statusOf } from '../api/index.js';
import { ownersOf } from '../api/index.js';
import type { CodeOwners } from '../api/index.js';
import type { GitHubClient, RepoRef } from '../api/index.js';
import { GitHubApiError } from '../api/index.js';

/** Repository roles from least to most; custom roles fall back to their base permission. */
const ROLE_ORDER = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
type Role = (typeof ROLE_ORDER)[number];

/**
 * Who may override, and how far: `scope: 'demand'` when only as a code owner of the catalog, which
 * approves the demand the pull request declares there and nothing else.
 */
export type OverrideDecision = { allowed: true; via: string; scope?: 'demand' } | { allowed: false; why: string };

export interface OverrideRequest {
  repo: RepoRef;
  /** Who asked. */
  login: string;
  /** Who opened the pull request. */
  author: string;
  /** The policy from the base branch: the pull request cannot grant itself the right. */
  policy: Policy['overrides'];
  /** Policy files that could not be read whole: who may override is then not known. */
  unreadPolicy?: readonly string[] | undefined;
  /** The catalog and the base branch's CODEOWNERS, asked only when the policy lets its owners approve. */
  catalog?: { path: string; codeOwners: () => Promise<CodeOwners | null> } | undefined;
}

/**
 * Whether `login` may override: the PR author only when the policy allows authors (and then
 * whatever their role); anyone else through their repository role or an active team membership.
 */
export async function decideOverride(octokit: GitHubClient, request: OverrideRequest): Promise<OverrideDecision> {
  const { repo, login, author, policy } = request;
  const unread = request.unreadPolicy ?? [];
  if (unread.length > 0) {
    // An inherited file may name other teams or a higher permission: nobody is let in on a guess.
    return {
      allowed: false,
      why: `the policy could not be read whole (${unread.join(', ')}), so who may override is not known; an override is accepted once it can be read`,
    };
  }
  if (sameLogin(login, author)) {
    return policy.allowAuthor
      ? { allowed: true, via: 'pull request author (allowAuthor)' }
      : { allowed: false, why: 'the policy does not let the pull request author override their own pull request' };
  }
  const role = await roleOf(octokit, repo, login);
  if (rank(role) >= rank(policy.minPermission)) return { allowed: true, via: `${role} permission` };
  for (const team of policy.teams) {
    if (await isActiveMember(octokit, repo.owner, team, login)) return { allowed: true, via: `member of @${repo.owner}/${team}` };
  }
  const catalog = policy.catalogOwners ? request.catalog : undefined;
  if (catalog) {
    const owner = await ownerOfCatalog(octokit, catalog, login);
    if (owner) return { allowed: true, via: owner, scope: 'demand' };
  }
  const teams = policy.teams.length > 0 ? ` or membership of ${policy.teams.map((t) => `@${repo.owner}/${t}`).join(', ')}` : '';
  const owners = catalog ? `, or (for the demand a pull request declares in ${catalog.path} alone) owning it in CODEOWNERS` : '';
  return {
    allowed: false,
    why: `overriding needs ${policy.minPermission} permission on this repository${teams}${owners}; @${login} has ${role}`,
  };
}

/** How `login` owns the catalog in the base branch's CODEOWNERS (named, or through a team); null when not. */
async function ownerOfCatalog(
  octokit: GitHubClient,
  catalog: NonNullable<OverrideRequest['catalog']>,
  login: string,
): Promise<string | null> {
  const codeOwners = await catalog.codeOwners();
  if (codeOwners === null) return null;
  for (const owner of ownersOf(codeOwners, catalog.path)) {
    const team = /^@([^/\s]+)\/([^/\s]+)$/.exec(owner);
    if (team) {
      if (await isActiveMember(octokit, team[1] ?? '', team[2] ?? '', login)) return `code owner of ${catalog.path} (through ${owner})`;
    } else if (sameLogin(owner, `@${login}`)) return `code owner of ${catalog.path}`;
  }
  return null;
}

async function roleOf(octokit: GitHubClient, repo: RepoRef, username: string): Promise<Role> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    // `role_name` knows triage and maintain; `permission` is the legacy read/write/admin.
    const named = asRole(data.role_name);
    return named ?? asRole(data.permission) ?? 'none';
  } catch (err) {
    // Not a collaborator at all.
    if (statusOf(err) === 404) return 'none';
    throw GitHubApiError.from(err) ?? err;
  }
}

async function isActiveMember(octokit: GitHubClient, org: string, team: string, username: string): Promise<boolean> {
  try {
    const { data } = await octokit.rest.teams.getMembershipForUserInOrg({ org, team_slug: team, username });
    return data.state === 'active';
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw GitHubApiError.from(err) ?? err;
  }
}

function asRole(value: unknown): Role | null {
  return typeof value === 'string' && (ROLE_ORDER as readonly string[]).includes(value) ? (value as Role) : null;
}

function rank(role: Role): number {
  return ROLE_ORDER.indexOf(role);
}

function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
