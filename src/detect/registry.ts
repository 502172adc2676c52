import { bicepParser } from './bicep/bicep-parser.js';
import { capiParser } from './capi.js';
import { cloudFormationParser } from './cloudformation.js';
import { clusterToolkitParser } from './cluster-toolkit.js';
import { eksctlParser } from './eksctl.js';
import { gkeClusterAutoprovisioningParser } from './gke-cluster-autoprovisioning.js';
import { gkeNodePoolParser } from './gke-node-pool.js';
import { gpuSharingParser } from './gpu-sharing.js';
import { helmValuesParser } from './helm-values.js';
import { kaitoParser } from './kaito.js';
import { karpenterParser } from './karpenter.js';
import { kueuePopulatorParser } from './kueue-populator.js';
import { kueueParser } from './kueue.js';
import { kustomizeParser } from './kustomize/kustomize-parser.js';
import { openshiftAutoscalerParser } from './openshift-autoscaler.js';
import { openshiftMachinesParser } from './openshift-machines.js';
import type { CapacityParser } from './parser.js';
import { terraformManifestsParser } from './terraform/manifests-parser.js';
import { terraformParser } from './terraform/terraform-parser.js';

/** Formats read from a YAML document as it stands; also what embedded YAML is read with. */
const MANIFEST_PARSERS: readonly CapacityParser[] = [
  kueueParser,
  karpenterParser,
  eksctlParser,
  capiParser,
  gkeNodePoolParser,
  gkeClusterAutoprovisioningParser,
  clusterToolkitParser,
  kaitoParser,
  gpuSharingParser,
  kueuePopulatorParser,
  openshiftAutoscalerParser,
  openshiftMachinesParser,
  cloudFormationParser,
];

/** Every capacity format the detector knows; a new format is one more entry. */
export const PARSERS: readonly CapacityParser[] = [
  ...MANIFEST_PARSERS,
  helmValuesParser(MANIFEST_PARSERS),
  terraformParser,
  terraformManifestsParser(MANIFEST_PARSERS),
  bicepParser,
  kustomizeParser,
];
