import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/** An azd-style template: one GPU pool sized by its parameters. */
const MAIN = `param gpuNodeCount int = 1
param gpuVmSize string = 'Standard_NC24ads_A100_v4'
param clusterName string = 'ml'

resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: clusterName
  properties: {
    agentPoolProfiles: [
      {
        name: 'gpu'
        count: gpuNodeCount
        vmSize: gpuVmSize
      }
    ]
  }
}
`;
const params = (values: Record<string, unknown>) =>
  `${JSON.stringify(
    {
      $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#',
      contentVersion: '1.0.0.0',
      parameters: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'object' ? v : { value: v }])),
    },
    null,
    2,
  )}\n`;

async function review(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter]),
    coverage: r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => `${n.reason}: ${n.subject}`)]),
  };
}

describe('ARM JSON parameter files of a Bicep template (main.parameters.json)', () => {
  for (const name of ['infra/main.parameters.json', 'infra/main.parameters.prod.json', 'infra/main.params.json']) {
    it(`${name} sizes infra/main.bicep: a changed count is counted`, async () => {
      const base = { 'infra/main.bicep': MAIN, [name]: params({ gpuNodeCount: 2 }) };
      expect(await review(base, { ...base, [name]: params({ gpuNodeCount: 4 }) })).toEqual({
        changes: [['infra/main.bicep', 'gpu', 2, 4]],
        coverage: [[name, 'read']],
      });
    });
  }

  it('overrides the template default, so a changed default it sets is no change', async () => {
    const base = { 'infra/main.bicep': MAIN, 'infra/main.parameters.json': params({ gpuNodeCount: 2 }) };
    const head = { ...base, 'infra/main.bicep': MAIN.replace('gpuNodeCount int = 1', 'gpuNodeCount int = 6') };
    expect((await review(base, head)).changes).toEqual([]);
  });

  it('a GPU size given as a value is accounted for; a changed name is no change', async () => {
    const base = {
      'infra/main.bicep': MAIN,
      'infra/main.parameters.json': params({ gpuNodeCount: 2, gpuVmSize: 'Standard_NC24ads_A100_v4', clusterName: 'a' }),
    };
    const head = {
      ...base,
      'infra/main.parameters.json': params({ gpuNodeCount: 2, gpuVmSize: 'Standard_NC24ads_A100_v4', clusterName: 'b' }),
    };
    expect(await review(base, head)).toEqual({ changes: [], coverage: [['infra/main.parameters.json', 'read']] });
  });

  it('a value azd fills from the environment, a Key Vault reference or a string count is no count', async () => {
    const unknowns = [{ value: '${GPU_NODES}' }, { reference: { keyVault: { id: 'kv' }, secretName: 'n' } }, '3'];
    for (const given of unknowns) {
      const base = { 'infra/main.bicep': MAIN, 'infra/main.parameters.json': params({ gpuNodeCount: 2 }) };
      const r = await review(base, { ...base, 'infra/main.parameters.json': params({ gpuNodeCount: given }) });
      expect(r.changes).toEqual([]);
      expect(r.coverage[0]?.[1]).toBe('not-followed');
    }
  });

  // The template renamed away from its parameter file's name (or the file named for a compiled
  // azuredeploy.json): paired by the parameters it sets, most of which the template declares.
  for (const template of ['infra/renamed-main.bicep', 'infra/aks.bicep', 'infra/Main.bicep']) {
    it(`a default the file overrides stays not deployed with the template at ${template}`, async () => {
      const file = template === 'infra/aks.bicep' ? 'infra/azuredeploy.parameters.json' : 'infra/main.parameters.json';
      // One parameter the template no longer declares, as files kept beside a template often hold.
      const base = { [template]: MAIN, [file]: params({ gpuNodeCount: 2, clusterName: 'ml', location: 'westeurope' }) };
      const head = { ...base, [template]: MAIN.replace('gpuNodeCount int = 1', 'gpuNodeCount int = 6') };
      expect((await review(base, head)).changes).toEqual([]);
      const grown = { ...base, [file]: params({ gpuNodeCount: 4, clusterName: 'ml', location: 'westeurope' }) };
      expect((await review(base, grown)).changes).toEqual([[template, 'gpu', 2, 4]]);
    });
  }

  it('a file most of whose parameters the template beside it does not declare is not paired', async () => {
    const base = { 'infra/renamed-main.bicep': MAIN, 'infra/main.parameters.json': params({ a: 1, b: 2, gpuNodeCount: 3 }) };
    const head = { ...base, 'infra/renamed-main.bicep': MAIN.replace('gpuNodeCount int = 1', 'gpuNodeCount int = 6') };
    expect((await review(base, head)).changes).toEqual([['infra/renamed-main.bicep', 'gpu', 1, 6]]);
  });

  // A `.bicepparam` beside a JSON parameter file of the same template: either may be the one deployed.
  for (const [changed, bicepparam] of [
    ['infra/main.bicepparam', "using './main.bicep'\nparam gpuNodeCount = 2\n"],
    ['infra/main.parameters.json', "using './main.bicep'\nparam gpuNodeCount = 2\n"],
    ['infra/main.bicepparam', 'using none\nparam gpuNodeCount = 2\n'],
  ] as const) {
    it(`a count changed in ${changed} beside a rival of the other format is not followed, never counted`, async () => {
      const base = {
        'infra/main.bicep': MAIN,
        'infra/main.parameters.json': params({ gpuNodeCount: 2 }),
        'infra/main.bicepparam': bicepparam,
      };
      const grown = changed.endsWith('.json') ? params({ gpuNodeCount: 4 }) : bicepparam.replace('= 2', '= 4');
      const r = await review(base, { ...base, [changed]: grown });
      if (bicepparam.startsWith('using none')) {
        // A file that sets no template is not a rival: the JSON file is the deployment.
        expect(r.changes).toEqual(changed.endsWith('.json') ? [['infra/main.bicep', 'gpu', 2, 4]] : []);
        return;
      }
      expect(r.changes).toEqual([]);
      expect(r.coverage).toEqual([[changed, 'not-followed', expect.stringMatching(/^count-unknown: gpu/)]]);
    });
  }

  it('parameter files of one format only are deployments of their own, each counted', async () => {
    const base = {
      'infra/main.bicep': MAIN,
      'infra/main.dev.bicepparam': "using './main.bicep'\nparam gpuNodeCount = 1\n",
      'infra/main.prod.bicepparam': "using './main.bicep'\nparam gpuNodeCount = 2\n",
    };
    const r = await review(base, { ...base, 'infra/main.prod.bicepparam': "using './main.bicep'\nparam gpuNodeCount = 4\n" });
    expect(r.changes).toEqual([['infra/main.bicep', 'gpu [main.prod]', 2, 4]]);
  });
});
