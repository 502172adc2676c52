import { quoted } from './escape.js';
import type { MissingText, NotFollowed } from '../domain/index.js';

const at = (n: NotFollowed) => (n.line === null ? n.file : `${n.file}:${n.line}`);
const list = (items: readonly string[] | undefined) => (items ?? []).map((i) => `${quoted(i)}`).join(', ');

/**
 * What the review lacks for one thing it could not follow, and what would let it follow it.
 * Backticks mark code, as the report renders it.
 */
export function notFollowedEvidence(n: NotFollowed): MissingText {
  switch (n.reason) {
    case 'unreadable':
      // `needs`, when set, is why the file is not read as it stands (a document the applier refuses).
      if (n.needs !== undefined)
        return { what: `a reading of ${n.file}`, how: `it is not followed: ${n.needs}; check its GPU capacity by hand` };
      return {
        what: `a readable ${n.file}`,
        how: `fix the error reported at ${quoted(at(n))}; until then its GPU capacity is not followed`,
      };
    case 'count-unknown':
      // `needs`, when set, is what bounds the count, written by the reader that knows the format.
      if (n.needs !== undefined) return { what: `the GPU count of ${n.subject} (${at(n)})`, how: `it is not followed: ${n.needs}` };
      return {
        what: `the GPU count of ${n.subject} (${at(n)})`,
        how: `it is not followed: give the value it reads a literal or a default in the repository (see the warning at ${quoted(at(n))})`,
      };
    case 'count-unknown-before':
      return {
        what: `the GPU count of ${n.subject} before this change (${at(n)})`,
        how: `it is ${n.inputs?.[0] ?? 'known'} GPUs now, but its count before could not be read, so how many this adds is not followed: give the value it read before a literal or a default, or check the change by hand`,
      };
    case 'local-module':
      return {
        what: `the pools of ${quoted(n.needs ?? '')} as ${quoted(n.subject)} sizes them (${at(n)})`,
        how: `the call passes ${list(n.inputs)} to a module of this repository that is not followed through the call: set these sizes in ${quoted(n.needs ?? '')} itself, or check its pools' GPUs by hand`,
      };
    case 'remote-module':
      return {
        what: `the GPU capacity of ${quoted(n.subject)} (source ${quoted(n.needs ?? '')}, ${at(n)})`,
        how: `this module is not followed and its inputs changed (${list(n.inputs)}): declare the GPU pools with resources or a module gpu-justify reads (terraform-google-modules/kubernetes-engine \`node_pools\`, terraform-aws-modules/eks node groups), or check them by hand`,
      };
    case 'tfvars-no-module':
      return {
        what: `the root module that reads ${n.file}`,
        how: `its changed variables (${list(n.inputs)}) could size GPU pools, but no \`.tf\` file sits beside it and no module declaring them was found: keep the tfvars in the root module's folder (or under \`envs/<env>/\` below it), or check the pools they feed by hand`,
      };
    case 'helm-values':
      if (n.needs === undefined) {
        return {
          what: `the chart that ${n.file} is installed with`,
          how: `its changed values (${list(n.inputs)}) could size GPU capacity, but no chart sits beside it (no \`Chart.yaml\` in its folder), so they are not followed into its templates: keep the values beside the chart, or check the rendered objects by hand (\`helm template\`)`,
        };
      }
      return {
        what: `a render of ${n.needs ?? 'the chart'} with ${n.file}`,
        how: `the changed values (${list(n.inputs)}) feed GPU capacity in the chart's templates through expressions that are not followed: use plain \`{{ .Values.x }}\` substitutions in the GPU fields, or check the rendered objects by hand (\`helm template\`)`,
      };
    case 'helm-template':
      // With a line: a changed template no install renders, whose GPUs the chart's defaults leave out.
      if (n.line !== null) {
        return {
          what: `an install of ${n.needs ?? 'the chart'} that renders ${quoted(at(n))}`,
          how: `the template can name GPUs (${list(n.inputs)}), but nothing in the repository installs its chart and the chart's default values render no capacity from it, so what it adds is not followed: keep the install and its values in this repository, or check the objects it renders with the values it is installed with by hand (\`helm template -f <values>\`)`,
        };
      }
      return {
        what: `a render of ${n.file}`,
        how: `its GPU fields (${list(n.inputs)}) are template expressions that are not followed: use plain \`{{ .Values.x }}\` substitutions there, or check the rendered objects by hand (\`helm template\`)`,
      };
    case 'toolkit-deployment':
      return {
        what: `the Cluster Toolkit blueprint that ${n.file} deploys`,
        how: `its \`vars\` (${list(n.inputs)}) override the blueprint's and are not followed into it: keep the blueprint beside the deployment file, or check its node pools by hand`,
      };
    case 'terragrunt-include':
      // Set on a unit: what it includes (or its inputs expression) could not be resolved.
      if (n.needs !== undefined) {
        return {
          what: `${quoted(n.subject)} of ${n.file} (${n.needs})`,
          how: `it could not be resolved from the repository, so the inputs and module source it hands this unit are not followed: use \`find_in_parent_folders()\` or a path in the repository, or check the unit's pools by hand`,
        };
      }
      return {
        what: `the Terragrunt units that include ${n.file}`,
        how: `its inputs (${list(n.inputs)}) reach the modules of the units that include it, which are not followed from here: set them in each unit's \`inputs\`, or check those units' pools by hand`,
      };
    case 'gitops-install':
      return {
        what: `what ${n.subject} in ${n.file} installs (the chart ${quoted(n.needs ?? '')})`,
        how: `its values are not followed into the chart (${list(n.inputs)}): keep the chart and its values in this repository (a chart folder the Application or HelmRelease points to, values in Git rather than a Secret), or check the GPU objects it renders by hand (\`helm template\`)`,
      };
    case 'gitops-variables':
      return {
        what: `what the Flux variables ${list(n.inputs)} (${at(n)}) set`,
        how: `Flux substitutes them into the manifests its Kustomizations apply, and ${n.needs ?? 'where they land is not followed'}: write the value where it is used, or use the plain \`\${var}\` or \`\${var:=default}\` forms, or check the substituted objects by hand (\`flux build kustomization\`)`,
      };
    case 'unaccounted-signal': {
      const where = n.line === null ? `${n.file}, ${n.needs ?? 'before this change'}` : at(n);
      const more = n.inputs && n.inputs.length > 0 ? ` (and ${list(n.inputs)})` : '';
      return {
        what: `what ${quoted(n.subject)} at ${quoted(where)} does to GPU capacity`,
        how:
          `it names GPUs${more} in a form no reader of gpu-justify accounts for, so the file is not followed: if it declares capacity, ` +
          `declare it in a form the review reads (a Kueue ClusterQueue, a Karpenter NodePool, an eksctl, Cluster API or Terraform node pool: docs/change-kinds.md); ` +
          `if it is not capacity, it passes once a maintainer records \`/gpu-justify override <reason>\` after checking it`,
      };
    }
    case 'cli-command': {
      const from = n.inputs && n.inputs.length > 0 ? `; it reads ${list(n.inputs)}, set outside the files read with it` : '';
      return {
        what: `the GPUs of what ${quoted(n.subject)} at ${quoted(at(n))} makes or sizes`,
        how:
          `the command changed and ${n.needs ?? 'its machines cannot be told'}${from}; a command is not counted, since what it sizes depends on what exists when it runs: ` +
          `declare the pool in a form the review reads (Terraform, Bicep, an eksctl ClusterConfig: docs/change-kinds.md), or check it by hand`,
      };
    }
    case 'parameter-file':
      if (n.needs === undefined) {
        return {
          what: `the template that ${n.file} deploys`,
          how: `its changed values (${list(n.inputs)}) could size GPU pools, but no template beside it or one folder up declares them: keep the parameter file beside its template, or check the pools it sizes by hand`,
        };
      }
      return {
        what: `the GPU pools of ${quoted(n.needs)} as ${n.file} sizes them`,
        how: `its changed values (${list(n.inputs)}) feed a template that names GPUs in a form no reader of gpu-justify counts: declare the pools in a form the review reads (Bicep, Terraform, an eksctl ClusterConfig: docs/change-kinds.md), or check them by hand`,
      };
    case 'gpu-reference':
      return {
        what: `what ${quoted(n.subject)} (${at(n)}) does to GPU capacity`,
        how: `it and ${quoted(n.needs ?? '')} are tied (one takes its machines or a size from the other), and that names GPUs (${list(n.inputs)}) in a form no reader of gpu-justify accounts for, so the change is not followed: declare the GPU pool in a form the review reads (an EKS node group, a GKE node pool: docs/change-kinds.md), or check its GPUs by hand`,
      };
    case 'program-config':
      return {
        what: `what ${n.file}${n.inputs && n.inputs.length > 0 ? ` (${list(n.inputs)})` : ''} sets in ${n.subject}`,
        how: `gpu-justify does not evaluate that program, and ${n.needs ?? 'it may declare GPU capacity'}: check the GPU capacity it plans with these values by hand (\`pulumi preview\`, \`cdk diff\`, \`terraform stacks plan\`, \`terragrunt stack run plan\`), or declare the GPU pools in a form the review reads (docs/change-kinds.md)`,
      };
    case 'kueue-flavor':
      return {
        what: `what the ClusterQueues naming ${quoted(n.subject)} (${at(n)}) get from it`,
        how: `the flavor changed and ${n.needs ?? 'the queues that name it were not found'}: keep the flavor beside the queues that name it, or check by hand the GPU model and count each queue's quota buys`,
      };
    case 'unscanned':
      return {
        what: `a scan of ${n.file} for GPU names`,
        how: `the pull request has ${n.needs ?? 'more changed files than one review scans'}, so this file was not read: split the pull request, or check the file by hand`,
      };
  }
}
