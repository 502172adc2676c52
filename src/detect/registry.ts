import { bicepParser } from './bicep/index.js';
import { cloudFormationParser } from './cloudformation/index.js';
import { cliScriptParser } from './cli-scripts/index.js';
import { capiParser } from './cluster-api/index.js';
import { clusterToolkitParser } from './cluster-toolkit/index.js';
import { coreWeaveNodePoolParser } from './coreweave/index.js';
import { deckhouseNodeGroupParser } from './deckhouse/index.js';
import { eksctlParser } from './eksctl/index.js';
import { gardenerShootParser } from './gardener/index.js';
import { gkeClusterAutoprovisioningParser, gkeComputeClassParser, gkeNodePoolParser } from './gke/index.js';
import { gpuSharingParser } from './gpu-sharing/index.js';
import { helmValuesParser } from './helm/index.js';
import { kaiQueueParser } from './kai-scheduler/index.js';
import { kaitoParser } from './kaito/index.js';
import { karpenterParser } from './karpenter/index.js';
import { kueueParser, kueuePopulatorParser } from './kueue/index.js';
import { kustomizeParser } from './kustomize/index.js';
import { machineControllerParser } from './kubermatic/index.js';
import { machineScalersParser } from './machine-scalers/index.js';
import { draParser } from './dra/index.js';
import { openshiftAutoscalerParser, openshiftMachinesParser } from './openshift/index.js';
import { rancherMachinePoolsParser } from './rancher/index.js';
import type { CapacityParser } from './parser.js';
import { terraformManifestsParser, terraformParser } from './terraform/index.js';
import { volcanoQueueParser } from './volcano/index.js';

// Each format is a folder of detect/ whose index.ts exports its parsers; registry.test.ts checks
// that every folder's parsers are listed here.

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
  machineScalersParser,
  draParser,
  machineControllerParser,
  cloudFormationParser,
  coreWeaveNodePoolParser,
  gkeComputeClassParser,
  kaiQueueParser,
  volcanoQueueParser,
  gardenerShootParser,
  deckhouseNodeGroupParser,
  rancherMachinePoolsParser,
];

/** Every capacity format the detector knows; a new format is one more entry. */
export const PARSERS: readonly CapacityParser[] = [
  ...MANIFEST_PARSERS,
  helmValuesParser(MANIFEST_PARSERS),
  terraformParser,
  // Templates rendered into Helm values (a raw chart's `resources`) are read as values too.
  terraformManifestsParser(MANIFEST_PARSERS, [...MANIFEST_PARSERS, helmValuesParser(MANIFEST_PARSERS)]),
  bicepParser,
  kustomizeParser(MANIFEST_PARSERS),
  cliScriptParser,
];
