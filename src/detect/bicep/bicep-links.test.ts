import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { parseBicepSet } from './bicep-parser.js';

/** A module that declares one AKS pool from its parameters. */
const AKS = `param nodeCount int
param vmSize string = 'Standard_NC6s_v3'
param poolName string = 'gpu'

resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  properties: {
    agentPoolProfiles: [
      {
        name: poolName
        count: nodeCount
        vmSize: vmSize
      }
    ]
  }
}
`;
const call = (count: string) => `module aks './modules/aks.bicep' = {\n  name: 'aks'\n  params: {\n    nodeCount: ${count}\n  }\n}\n`;

async function review(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter]),
    coverage: r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => `${n.reason}: ${n.subject}`)]),
  };
}

describe('Bicep modules of this repository', () => {
  it('are read with the parameters the call gives, at the call', async () => {
    const base = { 'main.bicep': call('1'), 'modules/aks.bicep': AKS };
    expect(await review(base, { ...base, 'main.bicep': call('3') })).toEqual({
      changes: [['main.bicep', 'gpu', 1, 3]],
      coverage: [['main.bicep', 'read']],
    });
  });

  it('a count from a parameter no one gives is cannot tell, never 0', () => {
    const r = parseBicepSet([
      {
        path: 'main.bicep',
        text: "param n int\nmodule aks './modules/aks.bicep' = {\n  name: 'aks'\n  params: {\n    nodeCount: n\n  }\n}\n",
      },
      { path: 'modules/aks.bicep', text: AKS },
    ]);
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([expect.objectContaining({ file: 'main.bicep', line: 2, name: 'gpu' })]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        file: 'main.bicep',
        line: 2,
        message: match.stringContaining('parameter n has no default and no value in a parameter file that names this template'),
      }),
    ]);
  });

  it('a module called in a loop declares its pools per copy, named by the copy', () => {
    const loop = `param pools array = [
  { name: 'a100', count: 2, size: 'Standard_NC24ads_A100_v4' }
  { name: 'cpu', count: 5, size: 'Standard_D4s_v5' }
  { name: 't4', count: 3, size: 'Standard_NC4as_T4_v3' }
]
module aks './modules/aks.bicep' = [for p in pools: if (p.count > 0) {
  name: 'aks-\${p.name}'
  params: {
    nodeCount: p.count
    vmSize: p.size
    poolName: p.name
  }
}]
`;
    const r = parseBicepSet([
      { path: 'main.bicep', text: loop },
      { path: 'modules/aks.bicep', text: AKS },
    ]);
    expect(r.decls.map((d) => [d.name, d.gpuModel, d.gpus])).toEqual([
      ['a100', 'A100', 2],
      ['t4', 'T4', 3],
    ]);
  });

  it('agentPools resources copied by a loop over a variable built with functions', () => {
    const text = `param extra array = []
var base = [
  { name: 'gpua', max: 4 }
]
var pools = union(base, extra)
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' existing = {
  name: 'ml'
}
resource gpu 'Microsoft.ContainerService/managedClusters/agentPools@2024-02-01' = [for (p, i) in pools: {
  parent: aks
  name: p.name
  properties: {
    vmSize: 'Standard_NC6s_v3'
    enableAutoScaling: true
    maxCount: min(p.max, 3) * (i + 1)
  }
}]
`;
    expect(parseBicepSet([{ path: 'pools.bicep', text }]).decls.map((d) => [d.name, d.gpus])).toEqual([['gpua', 3]]);
    const two = text.replace('param extra array = []', "param extra array = [ { name: 'gpub', max: 2 } ]");
    expect(parseBicepSet([{ path: 'pools.bicep', text: two }]).decls.map((d) => [d.name, d.gpus])).toEqual([
      ['gpua', 3],
      ['gpub', 4],
    ]);
    const unknown = parseBicepSet([{ path: 'pools.bicep', text: text.replace('param extra array = []', 'param extra array') }]);
    expect([unknown.decls, unknown.unresolved?.map((u) => u.name)]).toEqual([[], ['gpu']]);
  });
});

describe('Bicep parameter files', () => {
  const TEMPLATE = 'infra/main.bicep';
  const params = (using: string, n: number) => `using '${using}'\n\nparam nodeCount = ${n}\n`;

  it('set the template they name, in another folder', async () => {
    const base = { [TEMPLATE]: AKS, 'infra/env/prod.bicepparam': params('../main.bicep', 2) };
    expect(await review(base, { ...base, 'infra/env/prod.bicepparam': params('../main.bicep', 5) })).toEqual({
      changes: [['infra/main.bicep', 'gpu', 2, 5]],
      coverage: [['infra/env/prod.bicepparam', 'read']],
    });
  });

  it('two parameter files of one template are two deployments, named by their file', async () => {
    const base = { [TEMPLATE]: AKS, 'infra/dev.bicepparam': params('main.bicep', 1), 'infra/prod.bicepparam': params('main.bicep', 4) };
    expect(await review(base, { ...base, 'infra/prod.bicepparam': params('main.bicep', 8) })).toEqual({
      changes: [['infra/main.bicep', 'gpu [prod]', 4, 8]],
      coverage: [['infra/prod.bicepparam', 'read']],
    });
  });

  it('objects and arrays in a parameter file are values', () => {
    const r = parseBicepSet([
      {
        path: 'main.bicep',
        text: "param pool object\nmodule aks './aks.bicep' = {\n  name: 'x'\n  params: {\n    nodeCount: pool.count\n    vmSize: pool.size\n  }\n}\n",
      },
      { path: 'aks.bicep', text: AKS },
      { path: 'main.bicepparam', text: "using 'main.bicep'\nparam pool = {\n  count: 2\n  size: 'Standard_ND96asr_v4'\n}\n" },
    ]);
    expect(r.decls.map((d) => [d.name, d.gpus])).toEqual([['gpu', 16]]);
  });

  it('a value handed to a registry module is not followed on the parameter file, though it names no GPU', async () => {
    const main = `param nodes int\nmodule aks 'br:contoso.azurecr.io/bicep/aks:1.0.0' = {\n  name: 'aks'\n  params: {\n    size: nodes\n  }\n}\n`;
    const base = { 'main.bicep': main, 'main.bicepparam': "using 'main.bicep'\nparam nodes = 2\n" };
    expect(await review(base, { ...base, 'main.bicepparam': "using 'main.bicep'\nparam nodes = 6\n" })).toEqual({
      changes: [],
      coverage: [['main.bicepparam', 'not-followed', 'remote-module: module aks']],
    });
  });

  it('a module that creates no compute is left alone', async () => {
    const main = (prefix: string) =>
      `module vnet 'br/public:avm/res/network/virtual-network:0.5.0' = {\n  name: 'vnet'\n  params: {\n    addressPrefixes: ['${prefix}']\n  }\n}\n`;
    expect(await review({ 'main.bicep': main('10.0.0.0/16') }, { 'main.bicep': main('10.1.0.0/16') })).toEqual({
      changes: [],
      coverage: [['main.bicep', 'read']],
    });
  });

  it('a parameter file whose template is not in the tree is not followed', async () => {
    const base = { 'env/prod.bicepparam': params('../gone.bicep', 2) };
    expect(await review(base, { 'env/prod.bicepparam': params('../gone.bicep', 3) })).toEqual({
      changes: [],
      coverage: [['env/prod.bicepparam', 'not-followed', 'local-module: gone.bicep']],
    });
  });
});

describe('what reading Bicep accounts for (the floor)', () => {
  const VMSS = (size: string) => `param vmSize string = '${size}'
param nodeCount int = 2

resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  properties: {
    agentPoolProfiles: [
      {
        name: 'gpu'
        count: nodeCount
        vmSize: 'Standard_NC6s_v3'
      }
    ]
  }
}

resource scaleSet 'Microsoft.Compute/virtualMachineScaleSets@2024-03-01' = {
  name: 'render'
  sku: {
    name: vmSize
    capacity: 2
  }
}
`;

  it('a GPU size read by a pool is accounted for; one sizing a resource nothing reads is not followed', async () => {
    const base = { 'main.bicep': VMSS('Standard_D4s_v5') };
    expect(await review(base, { 'main.bicep': VMSS('Standard_NC24ads_A100_v4') })).toEqual({
      changes: [],
      coverage: [['main.bicep', 'not-followed', match.stringContaining('Standard_NC24ads_A100_v4')]],
    });
    // The same parameter read by the pool instead: the change is counted, and the file read.
    const pool = (size: string) =>
      VMSS(size).replace("vmSize: 'Standard_NC6s_v3'", 'vmSize: vmSize').replace('name: vmSize', "name: 'Standard_D4s_v5'");
    expect(await review({ 'main.bicep': pool('Standard_D4s_v5') }, { 'main.bicep': pool('Standard_NC6s_v3') })).toEqual({
      changes: [['main.bicep', 'gpu', 0, 2]],
      coverage: [['main.bicep', 'read']],
    });
  });

  it('a parameter file line is accounted for when its template reads the parameter whole', async () => {
    const template = VMSS('Standard_D4s_v5')
      .replace("'Standard_NC6s_v3'", 'gpuSize')
      .replace('param nodeCount', 'param gpuSize string\nparam nodeCount');
    const values = (gpu: string, vmss: string) => `using 'main.bicep'\nparam gpuSize = '${gpu}'\nparam vmSize = '${vmss}'\n`;
    const base = { 'main.bicep': template, 'main.bicepparam': values('Standard_NC6s_v3', 'Standard_D4s_v5') };
    expect(await review(base, { ...base, 'main.bicepparam': values('Standard_NC12s_v3', 'Standard_D4s_v5') })).toEqual({
      changes: [['main.bicep', 'gpu', 2, 4]],
      coverage: [['main.bicepparam', 'read']],
    });
    const vmss = await review(base, { ...base, 'main.bicepparam': values('Standard_NC6s_v3', 'Standard_NC24ads_A100_v4') });
    expect(vmss.coverage).toEqual([['main.bicepparam', 'not-followed', match.stringContaining('Standard_NC24ads_A100_v4')]]);
  });
});
