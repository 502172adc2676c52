import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * Pools whose properties a template builds with an expression rather than writes as an object
 * literal: `properties: union({…}, spot ? {…} : {})` (Azure/AKS-Construction's user pool), a
 * variable, `agentPoolProfiles: concat(array(systemPool), …)`, a pool item built by `union(base, {…})`.
 * ARM evaluates them before it creates anything, so every shape must come out with the same
 * count as the literal one, or not followed: never "no change" on a real increase.
 */
interface Pool {
  size: string;
  count: number;
}

const CLUSTER = "resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01'";
const POOL = "resource gpu 'Microsoft.ContainerService/managedClusters/agentPools@2024-02-01'";
const AVM = "module aks 'br/public:avm/res/container-service/managed-cluster:0.8.3'";
const literal = (p: Pool) => `{\n      name: 'gpupool'\n      vmSize: '${p.size}'\n      count: ${p.count}\n      mode: 'User'\n    }`;

/** The same GPU pool (and a CPU system pool) in each shape; `extra` is a CPU-only line. */
const SHAPES: Record<string, (p: Pool, extra: string) => string> = {
  'literal pool list': (p, x) =>
    `${x}\n${CLUSTER} = {\n  name: 'ml'\n  properties: {\n    agentPoolProfiles: [\n      { name: 'sys', vmSize: 'Standard_D4s_v5', count: 3, mode: 'System' }\n      ${literal(p)}\n    ]\n  }\n}\n`,
  'agentPools properties built by union()': (p, x) =>
    `${x}\nparam spot bool = false\nparam gpuSize string = '${p.size}'\nparam gpuCount int = ${p.count}\nresource parentAks ${CLUSTER.split(' ')[2]} existing = {\n  name: 'ml'\n}\n${POOL} = {\n  parent: parentAks\n  name: 'gpupool'\n  properties: union({\n    vmSize: gpuSize\n    count: gpuCount\n    mode: 'User'\n  }, spot ? { scaleSetPriority: 'Spot' } : {})\n}\n`,
  'agentPools properties from a variable': (p, x) =>
    `${x}\nvar props = {\n  vmSize: '${p.size}'\n  count: ${p.count}\n}\nresource parentAks ${CLUSTER.split(' ')[2]} existing = {\n  name: 'ml'\n}\n${POOL} = {\n  parent: parentAks\n  name: 'gpupool'\n  properties: props\n}\n`,
  'pool list from a variable': (p, x) =>
    `${x}\nvar pools = [\n  { name: 'sys', vmSize: 'Standard_D4s_v5', count: 3 }\n  ${literal(p)}\n]\n${CLUSTER} = {\n  name: 'ml'\n  properties: {\n    agentPoolProfiles: pools\n  }\n}\n`,
  'pool list by concat(array(…), …)': (p, x) =>
    `${x}\nparam onlySystem bool = false\nvar systemPool = { name: 'sys', vmSize: 'Standard_D4s_v5', count: 3 }\nvar gpuPool = ${literal(p)}\n${CLUSTER} = {\n  name: 'ml'\n  properties: {\n    agentPoolProfiles: onlySystem ? array(systemPool) : concat(array(systemPool), array(gpuPool))\n  }\n}\n`,
  'pool item built by union(base, {…})': (p, x) =>
    `${x}\nvar base = { mode: 'User', osType: 'Linux', count: 1 }\n${CLUSTER} = {\n  name: 'ml'\n  properties: {\n    agentPoolProfiles: [\n      union(base, { name: 'gpupool', vmSize: '${p.size}', count: ${p.count} })\n    ]\n  }\n}\n`,
  'cluster properties from a variable': (p, x) =>
    `${x}\nvar gpuPool = ${literal(p)}\nvar clusterProps = union({ dnsPrefix: 'ml' }, { agentPoolProfiles: [ gpuPool ] })\n${CLUSTER} = {\n  name: 'ml'\n  properties: clusterProps\n}\n`,
  'verified module pools from a variable': (p, x) =>
    `${x}\nvar userPools = [\n  ${literal(p)}\n]\n${AVM} = {\n  name: 'aks'\n  params: {\n    name: 'ml'\n    agentPools: userPools\n  }\n}\n`,
};

/** Shapes whose pools hang on a value no one can know before deploying: not followed, never a count. */
const UNKNOWABLE: Record<string, (p: Pool, extra: string) => string> = {
  'cluster properties holding a resource output': (p, x) =>
    `${x}\nresource net 'Microsoft.Network/virtualNetworks@2023-04-01' = {\n  name: 'vnet'\n  location: 'westeurope'\n}\nparam gpuSize string = '${p.size}'\nparam gpuCount int = ${p.count}\nvar clusterProps = union({\n  agentPoolProfiles: [ { name: 'gpupool', vmSize: gpuSize, count: gpuCount } ]\n}, { networkProfile: { podCidr: net.properties.addressSpace.addressPrefixes[0] } })\n${CLUSTER} = {\n  name: 'ml'\n  properties: clusterProps\n}\n`,
};

const BASE: Pool = { size: 'Standard_NC24ads_A100_v4', count: 2 };
/** Real increases: more nodes, a VM size with more GPUs. */
const INCREASES: { name: string; pool: Pool; delta: number }[] = [
  { name: 'count up', pool: { ...BASE, count: 5 }, delta: 3 },
  { name: 'bigger VM size', pool: { ...BASE, size: 'Standard_NC48ads_A100_v4' }, delta: 2 },
  { name: 'both', pool: { size: 'Standard_NC96ads_A100_v4', count: 3 }, delta: 10 },
];
const CPU_LINE = "param upgradeChannel string = 'none'";
const CPU_EDIT = "param upgradeChannel string = 'stable'";

async function review(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return {
    delta: r.changes.reduce((n, c) => n + c.gpusAfter - c.gpusBefore, 0),
    changes: r.changes.length,
    notFollowed: r.coverage.some((c) => c.state === 'not-followed'),
  };
}

describe('Bicep pools built by expressions, as ARM evaluates them', () => {
  for (const [shape, write] of Object.entries(SHAPES)) {
    it(`${shape}: every increase has the literal shape's count, a CPU-only edit stays no change`, async () => {
      const base = { 'infra/main.bicep': write(BASE, CPU_LINE) };
      for (const inc of INCREASES) {
        const got = await review(base, { 'infra/main.bicep': write(inc.pool, CPU_LINE) });
        expect({ shape, inc: inc.name, ...got }).toEqual({ shape, inc: inc.name, delta: inc.delta, changes: 1, notFollowed: false });
      }
      const cpu = await review(base, { 'infra/main.bicep': write(BASE, CPU_EDIT) });
      expect({ shape, ...cpu }).toEqual({ shape, delta: 0, changes: 0, notFollowed: false });
    });
  }

  for (const [shape, write] of Object.entries(UNKNOWABLE)) {
    it(`${shape}: every increase is not followed, never no change`, async () => {
      const base = { 'infra/main.bicep': write(BASE, CPU_LINE) };
      for (const inc of INCREASES) {
        const got = await review(base, { 'infra/main.bicep': write(inc.pool, CPU_LINE) });
        expect({ shape, inc: inc.name, notFollowed: got.notFollowed, delta: got.delta }).toEqual({
          shape,
          inc: inc.name,
          notFollowed: true,
          delta: 0,
        });
      }
    });
  }

  it('a GPU size handed to a module whose pool properties are built by union() is counted at the call', async () => {
    const pool = `param size string\nparam n int = 1\nresource parentAks 'Microsoft.ContainerService/managedClusters@2024-02-01' existing = {\n  name: 'ml'\n}\n${POOL} = {\n  parent: parentAks\n  name: 'user'\n  properties: union({\n    vmSize: size\n    count: n\n  }, {})\n}\n`;
    const call = (size: string, n: number) =>
      `param agentVMSize string = '${size}'\nparam agentCount int = ${n}\nmodule user './pool.bicep' = {\n  name: 'user'\n  params: {\n    size: agentVMSize\n    n: agentCount\n  }\n}\n`;
    const base = { 'main.bicep': call('Standard_D4ds_v5', 3), 'pool.bicep': pool };
    expect(await review(base, { ...base, 'main.bicep': call('Standard_NC24ads_A100_v4', 3) })).toEqual({
      delta: 3,
      changes: 1,
      notFollowed: false,
    });
  });
});
