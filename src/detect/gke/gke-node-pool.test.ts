import { describe, expect, it } from 'vitest';
import { yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);

const kcc = (autoscaling: string) => yaml`
  apiVersion: container.cnrm.cloud.google.com/v1beta1
  kind: ContainerNodePool
  metadata:
    name: l4-pool
  spec:
    location: us-central1
    nodeLocations: ["us-central1-a", "us-central1-b"]
    ${autoscaling}
    nodeConfig:
      machineType: g2-standard-24
`;

describe('GKE Config Connector', () => {
  it('uses the machine type when no accelerator is listed, per zone', () => {
    const r = detectFile('np.yaml', kcc('autoscaling: {maxNodeCount: 3}'));
    expect(counts(r)).toEqual([['gke-node-pool', 'l4-pool', 12]]);
    expect(r.decls[0]?.gpuModel).toBe('L4');
  });

  it('takes totalMaxNodeCount as the total', () => {
    expect(counts(detectFile('np.yaml', kcc('autoscaling: {totalMaxNodeCount: 5}')))).toEqual([['gke-node-pool', 'l4-pool', 10]]);
  });

  it('compares base and head', () => {
    const changes = compareSides(detectFile('np.yaml', kcc('nodeCount: 1')), detectFile('np.yaml', kcc('nodeCount: 2')));
    expect(changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[4, 8]]);
  });
});
