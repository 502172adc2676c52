import type { ChangeSet, Diagnostic, Policy } from '../domain/index.js';
import type { TelemetryInput } from '../telemetry/index.js';

export const POLICY_PATHS = ['.github/gpu-justify.yml', '.github/gpu-justify.yaml'] as const;

export interface LoadedPolicy {
  policy: Policy;
  diagnostics: Diagnostic[];
  /** Where it was read from; null when defaults apply. */
  file: string | null;
  /**
   * Policy files the chain names that could not be read whole (absent, not visible to the App,
   * refused, invalid YAML, a loop): the policy is not known, so no override is accepted under it.
   */
  unread?: string[];
}

export interface ReviewInput {
  changes: ChangeSet;
  policy: LoadedPolicy;
  headSha?: string;
  /** A catalog given outright (the CLI's `--catalog`), instead of the one in the head side. */
  catalog?: GivenCatalog;
  /** What the cluster does now; without it the review judges from the files alone. */
  telemetry?: TelemetryInput;
  /** The branch the pull request merges into, for the words that say where the policy is fixed. */
  baseBranch?: string;
}

/**
 * A catalog given outright (the CLI's `--catalog`). `base` is the base side's text at the same
 * repository path when the file is the repository's own (inside the checkout under review): the
 * pull request's edits to it are then its declared demand, judged as the head's catalog is. Absent
 * for a file of the operator's, outside the checkout, which the pull request cannot write.
 */
export interface GivenCatalog {
  file: string;
  text: string;
  base?: string | null;
}
