export type Mode = 'advise' | 'enforce';
/** When the review writes its comment on a pull request (docs/policy.md). */
export type CommentWhen = 'always' | 'changes' | 'never';
type Permission = 'write' | 'maintain' | 'admin';

/** `.github/gpu-justify.yml` after validation and defaults (docs/policy.md). */
export interface Policy {
  mode: Mode;
  catalog: string;
  /** Telemetry look-back, minutes. */
  window: number;
  headroom: number;
  idleBelow: number;
  overrides: {
    minPermission: Permission;
    teams: string[];
    allowAuthor: boolean;
    /**
     * Whether the catalog's code owners (CODEOWNERS on the base branch) may approve the demand a
     * pull request declares in the catalog, and that alone, with `/gpu-justify override`.
     */
    catalogOwners: boolean;
  };
  /** USD per GPU-hour by GPU model. */
  prices: Record<string, number>;
  telemetry: string;
  comment: CommentWhen;
}

export const DEFAULT_POLICY: Policy = {
  mode: 'advise',
  catalog: 'gpu-workloads.yaml',
  window: 14 * 24 * 60,
  headroom: 0.2,
  idleBelow: 0.05,
  overrides: { minPermission: 'maintain', teams: [], allowAuthor: false, catalogOwners: false },
  prices: {},
  telemetry: 'default',
  comment: 'changes',
};
