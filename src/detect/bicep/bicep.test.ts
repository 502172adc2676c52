import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { bicepParser, parseBicepSet } from './bicep-parser.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** An AKS cluster written the way small ML teams write it: a CPU system pool, a GPU pool sized by a parameter. */
const cluster = (gpuNodes: number) => `@description('GPU nodes')
param nodeCountGPU int = ${gpuNodes}
param systemVmSize string
param location string = resourceGroup().location

var gpuSize = 'Standard_NC6s_v3'

resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  location: location
  properties: {
    dnsPrefix: 'ml'
    agentPoolProfiles: [
      {
        name: 'system'
        count: 3
        vmSize: systemVmSize
        mode: 'System'
      }
      {
        name: 'gpupool'
        count: nodeCountGPU
        vmSize: gpuSize
        mode: 'User'
      }
    ]
  }
}
`;
const FILE = 'infra/cluster.bicep';

describe('AKS pools in Bicep', () => {
  it('reads a GPU pool of a managedClusters resource, its count from a parameter default', () => {
    const r = parseBicepSet([{ path: FILE, text: cluster(1) }]);
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.gpuStep, d.line])).toEqual([
      ['aks-node-pool', 'gpupool', 'V100', 1, 1, lineIn(cluster(1), 'count: nodeCountGPU')],
    ]);
    // The system pool's size comes from a parameter with no value: taken as a CPU pool, silently.
    expect(r.diagnostics).toEqual([]);
  });

  it('sees a raised default, and a parameter file beside the template wins over it', async () => {
    expect(changeRows(await detectPr({ [FILE]: cluster(1) }, { [FILE]: cluster(3) })).map((r) => r.slice(0, 5))).toEqual([
      ['aks-node-pool', 'gpupool', 1, 3, 'V100'],
    ]);
    const params = (n: number) => `using 'cluster.bicep'\nparam nodeCountGPU = ${n}\nparam systemVmSize = 'Standard_D4s_v5'\n`;
    const base = { [FILE]: cluster(1), 'infra/prod.bicepparam': params(2) };
    const head = { ...base, 'infra/prod.bicepparam': params(5) };
    expect(changeRows(await detectPr(base, head)).map((r) => r.slice(1, 4))).toEqual([['gpupool', 2, 5]]);
  });

  it('reads agentPools child resources that autoscale, and the pools handed to the verified AKS module', () => {
    const child = `param enableGpu bool = true
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' existing = {
  name: 'ml'
}
resource gpu 'Microsoft.ContainerService/managedClusters/agentPools@2024-02-01' = if (enableGpu) {
  parent: aks
  name: 'a100'
  properties: {
    vmSize: 'Standard_NC24ads_A100_v4'
    enableAutoScaling: true
    minCount: 0
    maxCount: enableGpu ? 4 : 0
  }
}
module cluster 'br/public:avm/res/container-service/managed-cluster:0.8.0' = {
  name: 'cluster'
  params: {
    name: 'kaito'
    primaryAgentPoolProfiles: [{ name: 'system', count: 2, vmSize: 'Standard_D4s_v5' }]
    agentPools: [
      { name: 'gpupool', count: 2, vmSize: 'Standard_NC12s_v3' }
    ]
  }
}
`;
    const r = parseBicepSet([{ path: 'aks.bicep', text: child }]);
    expect(r.decls.map((d) => [d.name, d.gpuModel, d.gpus])).toEqual([
      ['a100', 'A100', 4],
      ['gpupool', 'V100', 4],
    ]);
    expect(
      parseBicepSet([{ path: 'aks.bicep', text: child.replace('param enableGpu bool = true', 'param enableGpu bool = false') }]).decls.map(
        (d) => d.name,
      ),
    ).toEqual(['gpupool']);
  });

  it('says which value it cannot know, at its line, and keeps the pool as unknown', () => {
    const text = cluster(1).replace('param nodeCountGPU int = 1', 'param nodeCountGPU int');
    const r = parseBicepSet([{ path: FILE, text }]);
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([
      expect.objectContaining({ kind: 'aks-node-pool', name: 'gpupool', line: lineIn(text, 'count: nodeCountGPU') }),
    ]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        line: lineIn(text, 'count: nodeCountGPU'),
        severity: 'warning',
        message:
          'resource aks, pool gpupool: count = nodeCountGPU: parameter nodeCountGPU has no default and no value in a parameter file that names this template; its GPUs are not counted',
      }),
    ]);
  });

  it('reads pools built by a loop copy by copy, and warns when the list looped over cannot be told', () => {
    const loop = (pools: string) => `${pools}
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  properties: {
    agentPoolProfiles: [for p in pools: {
      name: p.name
      count: p.count
      vmSize: p.vmSize
    }]
  }
}
`;
    const known = loop(
      "param pools array = [ { name: 'gpu', count: 2, vmSize: 'Standard_NC6s_v3' }, { name: 'cpu', count: 3, vmSize: 'Standard_D4s_v5' } ]",
    );
    expect(parseBicepSet([{ path: 'loop.bicep', text: known }]).decls.map((d) => [d.name, d.gpus])).toEqual([['gpu', 2]]);
    const gpuLoop = loop('param pools array').replace('p.vmSize', "'Standard_NC6s_v3'");
    const unknown = parseBicepSet([{ path: 'loop.bicep', text: gpuLoop }]);
    expect(unknown.decls).toEqual([]);
    expect(unknown.unresolved).toEqual([expect.objectContaining({ kind: 'aks-node-pool', line: 5 })]);
    expect(unknown.diagnostics).toEqual([
      expect.objectContaining({
        line: 5,
        severity: 'warning',
        message: match.stringContaining('agentPoolProfiles is built by an expression (for statement) this tool does not evaluate'),
      }),
    ]);
    // A loop over CPU sizes that cannot be told declares no GPU pool.
    expect(parseBicepSet([{ path: 'loop.bicep', text: gpuLoop.replace('Standard_NC6s_v3', 'Standard_D4s_v5') }]).unresolved).toEqual([]);
  });

  it('claims only Bicep that declares AKS clusters, and their parameter files', () => {
    expect(bicepParser.mightContain('main.bicep', "resource sa 'Microsoft.Storage/storageAccounts@2023-01-01' = {}")).toBe(false);
    expect(bicepParser.mightContain(FILE, cluster(1))).toBe(true);
    expect(bicepParser.mightContain('prod.bicepparam', "using 'main.bicep'\nparam x = 1\n")).toBe(true);
  });
});
