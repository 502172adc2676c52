import { bicepParser } from './bicep/bicep-parser.js';
import { capiParser } from './cluster-api/capi.js';
import { cloudFormationParser } from './cloudformation/cloudformation.js';
import { clusterToolkitParser } from './cluster-toolkit/cluster-toolkit.js';
import { eksctlParser } from './eksctl/eksctl.js';
import { gkeClusterAutoprovisioningParser } from './gke/gke-cluster-autoprovisioning.js';
import { gkeNodePoolParser } from './gke/gke-node-pool.js';
import { gpuSharingParser } from './gpu-sharing/gpu-sharing.js';
import { helmValuesParser } from './helm/helm-values.js';
import { kaitoParser } from './kaito/kaito.js';
import { karpenterParser } from './karpenter/karpenter.js';
import { kueuePopulatorParser } from './kueue/kueue-populator.js';
import { kueueParser } from './kueue/kueue.js';
import { kustomizeParser } from './kustomize/kustomize-parser.js';
import { openshiftAutoscalerParser } from './openshift/openshift-autoscaler.js';
import { openshiftMachinesParser } from './openshift/openshift-machines.js';
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
