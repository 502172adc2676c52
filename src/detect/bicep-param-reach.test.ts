import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * A Bicep parameter that names no GPU (a count) changed in its parameter file, sizing a resource
 * no reader counts that names GPUs: never "no change". Generated over the resources and the two
 * kinds of parameter file.
 */

const UNREAD: Record<string, (sku: string) => string> = {
  'a scale set': (sku) => `resource vmss 'Microsoft.Compute/virtualMachineScaleSets@2023-03-01' = {
  name: 'gpu'
  location: resourceGroup().location
  sku: {
    name: '${sku}'
    capacity: nodeCount
  }
}
`,
  'an Azure ML cluster': (sku) => `resource compute 'Microsoft.MachineLearningServices/workspaces/computes@2024-04-01' = {
  name: 'ws/gpu'
  location: resourceGroup().location
  properties: {
    computeType: 'AmlCompute'
    properties: {
      vmSize: '${sku}'
      scaleSettings: {
        minNodeCount: 0
        maxNodeCount: nodeCount
      }
    }
  }
}
`,
  'a Batch pool': (sku) => `resource pool 'Microsoft.Batch/batchAccounts/pools@2024-02-01' = {
  name: 'acct/gpu'
  properties: {
    vmSize: '${sku}'
    scaleSettings: {
      fixedScale: {
        targetDedicatedNodes: nodeCount
      }
    }
  }
}
`,
};

const STORAGE = `resource logs 'Microsoft.Storage/storageAccounts@2023-01-01' = {
  name: 'logs\${retention}'
  location: resourceGroup().location
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
}
`;

const template = (resource: string) => `param nodeCount int\nparam retention int\n\n${resource}\n${STORAGE}`;

const FILES: Record<string, (n: number, retention?: number) => Record<string, string>> = {
  '.bicepparam': (n, retention = 7) => ({
    'infra/main.bicepparam': `using './main.bicep'\n\nparam nodeCount = ${n}\nparam retention = ${retention}\n`,
  }),
  '.parameters.json': (n, retention = 7) => ({
    'infra/main.parameters.json': `{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#",\n  "contentVersion": "1.0.0.0",\n  "parameters": {\n    "nodeCount": { "value": ${n} },\n    "retention": { "value": ${retention} }\n  }\n}\n`,
  }),
};

const flagged = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('a Bicep parameter sizing a resource no reader counts', () => {
  for (const [what, resource] of Object.entries(UNREAD)) {
    for (const [kind, params] of Object.entries(FILES)) {
      const tree = (n: number, sku: string, retention?: number) => ({
        'infra/main.bicep': template(resource(sku)),
        ...params(n, retention),
      });
      const file = Object.keys(params(1))[0] ?? '';

      it(`${what}, the count in ${kind}: 1 → 8 on a GPU size is not followed`, async () => {
        const r = await detectPr(tree(1, 'Standard_NC24ads_A100_v4'), tree(8, 'Standard_NC24ads_A100_v4'));
        expect(r.changes).toEqual([]);
        expect(flagged(r)).toEqual([file]);
      });

      it(`${what}, the count in ${kind}: 1 → 8 on a CPU size is no change (negative control)`, async () => {
        const r = await detectPr(tree(1, 'Standard_D4s_v5'), tree(8, 'Standard_D4s_v5'));
        expect(flagged(r)).toEqual([]);
      });

      it(`${what}, in ${kind}: a value only a storage account reads is no change (negative control)`, async () => {
        const r = await detectPr(tree(1, 'Standard_NC24ads_A100_v4', 7), tree(1, 'Standard_NC24ads_A100_v4', 30));
        expect(flagged(r)).toEqual([]);
      });
    }
  }
});
