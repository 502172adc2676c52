/**
 * What became of each changed file: read (with the capacity it declares, or none), ruled out by
 * a cheap check, or able to shape GPU capacity in a way the review could not follow. Only a PR
 * whose every file is read or ruled out can be "no GPU change".
 */
type CoverageState = 'read' | 'not-capacity' | 'not-followed';

/**
 * Why a file was not followed; report/ writes the sentence from the code and its data.
 * - `unreadable`: the file could hold capacity but could not be parsed (syntax, size).
 * - `count-unknown`: it declares GPU capacity whose count could not be worked out.
 * - `count-unknown-before`: the count is known now but could not be read before, so the change is unknown.
 * - `local-module`: it sizes a module of this repository through inputs the review does not bind.
 * - `remote-module`: it hands GPU types or sizes to a module the review does not read.
 * - `tfvars-no-module`: variable values for GPU inputs, with no module beside them to apply them to.
 * - `helm-values`: values of a chart whose templates declare GPU capacity from them.
 * - `helm-template`: a chart template whose GPU fields the review could not render; with a line, a
 *   changed template that can name GPUs which no install in the tree renders and the chart's defaults
 *   leave out (`needs`: the chart; `inputs`: what names the GPUs).
 * - `toolkit-deployment`: Cluster Toolkit deployment `vars` for a blueprint not read with them.
 * - `terragrunt-include`: a Terragrunt parent whose inputs its units inherit, not followed into them;
 *   with `needs`, a unit's include (or inputs expression) that could not be resolved.
 * - `gitops-install`: an Argo CD Application or Flux HelmRelease whose chart is not in the repository
 *   (`needs`: where it is) while its values name GPUs, or whose values come from where the review cannot
 *   read (`inputs`: a Secret, a values file not in the tree) for a chart here that renders capacity.
 * - `unaccounted-signal`: it names GPUs (`subject`: an instance type, a GPU resource, a key) where no
 *   format the review reads accounts for it and nothing shows it to be no capacity; `inputs` names
 *   the next ones; a name only the base side holds has no line, and `needs` gives the base's.
 * - `unscanned`: a changed file past the bounds of what one review scans (`needs` says which).
 * - `cli-command`: a cloud CLI command in a script or CI file that makes or sizes a node pool (or a
 *   quota) with GPUs, or whose machines cannot be told (`inputs`: the variables set elsewhere).
 * - `parameter-file`: an ARM or CloudFormation parameter file whose changed values (`inputs`) feed a
 *   template no reader reads that names GPUs (`needs`), or one whose template was not found.
 * - `gpu-reference`: a changed block (`subject`) takes its machines from a block of its module that names
 *   GPUs in a form no reader accounts for (`needs`: its address and place; `inputs`: the GPU name), a
 *   launch template or an instance template; or a changed module output a caller's block naming GPUs reads.
 * - `program-config`: values (`inputs`: the keys that changed) a program takes in that no reader
 *   evaluates (a Pulumi stack's config, CDK context, a Terraform or Terragrunt stack's inputs), where
 *   that program (`subject`) names GPUs or cannot be read in full (`needs` says which).
 */
type NotFollowedReason =
  | 'unreadable'
  | 'count-unknown'
  | 'count-unknown-before'
  | 'local-module'
  | 'remote-module'
  | 'tfvars-no-module'
  | 'helm-values'
  | 'helm-template'
  | 'toolkit-deployment'
  | 'terragrunt-include'
  | 'gitops-install'
  | 'gitops-variables'
  | 'unaccounted-signal'
  | 'unscanned'
  | 'cli-command'
  | 'parameter-file'
  | 'gpu-reference'
  | 'program-config'
  | 'kueue-flavor';

/** One thing in a file that could shape GPU capacity and was not followed. */
export interface NotFollowed {
  file: string;
  line: number | null;
  reason: NotFollowedReason;
  /** What was not followed: `module.gpu_pool`, `var.gpu_nodes`, `clusterQueue.gpus`, a pool's name. */
  subject: string;
  /** What would let the review follow it: the module source, the file to add, the variable lacking a default. */
  needs?: string;
  /** Names the inputs involved (a module call's GPU inputs, the values a template reads). */
  inputs?: string[];
}

/** The state of one changed file. */
export interface FileCoverage {
  file: string;
  state: CoverageState;
  /** For `read`: capacity objects it declares at head (0 when it declares none). */
  objects?: number;
  /** For `not-followed`: each thing not followed, first by line. */
  notFollowed?: NotFollowed[];
  /**
   * For `not-followed`: a digest of the file as both sides hold it. What the review cannot read
   * it cannot describe either, so an approval of the file binds to its bytes (see src/review).
   */
  content?: string;
}
