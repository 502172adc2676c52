import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';

/** An ARM template no reader counts: a GPU scale set sized by its parameters. */
const TEMPLATE = (size: string) => `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "parameters": {
    "name": { "type": "string" },
    "instanceCount": { "type": "int", "defaultValue": 1 },
    "vmSize": { "type": "string", "defaultValue": "${size}" }
  },
  "resources": [
    {
      "type": "Microsoft.Compute/virtualMachineScaleSets",
      "apiVersion": "2023-03-01",
      "name": "[parameters('name')]",
      "sku": { "name": "[parameters('vmSize')]", "capacity": "[parameters('instanceCount')]" }
    }
  ]
}
`;
const PARAMS = (name: string, count: number) => `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#",
  "contentVersion": "1.0.0.0",
  "parameters": { "name": { "value": "${name}" }, "instanceCount": { "value": ${count} } }
}
`;
const CFN_PARAMS = (count: string) =>
  `[\n  { "ParameterKey": "Env", "ParameterValue": "prod" },\n  { "ParameterKey": "Nodes", "ParameterValue": "${count}" }\n]\n`;

async function states(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => `${n.reason}: ${n.subject}`)]);
}

describe('parameter files of templates no reader counts', () => {
  it('a changed count for a template that names GPUs is not followed; a changed name is no change', async () => {
    const base = { 'arm/azuredeploy.json': TEMPLATE('Standard_NC6s_v3'), 'arm/azuredeploy.parameters.json': PARAMS('a', 2) };
    expect(await states(base, { ...base, 'arm/azuredeploy.parameters.json': PARAMS('a', 6) })).toEqual([
      ['arm/azuredeploy.parameters.json', 'not-followed', 'parameter-file: arm/azuredeploy.json'],
    ]);
    // Taken by the Bicep reader as a parameter file, whose template is not Bicep: read, no change.
    expect(await states(base, { ...base, 'arm/azuredeploy.parameters.json': PARAMS('b', 2) })).toEqual([
      ['arm/azuredeploy.parameters.json', 'read'],
    ]);
  });

  it('one for a template that names no GPU is no capacity', async () => {
    const base = { 'arm/azuredeploy.json': TEMPLATE('Standard_D4s_v5'), 'arm/azuredeploy.parameters.json': PARAMS('a', 2) };
    expect(await states(base, { ...base, 'arm/azuredeploy.parameters.json': PARAMS('a', 6) })).toEqual([
      ['arm/azuredeploy.parameters.json', 'read'],
    ]);
  });

  it('with no template found, a changed number is not followed', async () => {
    const base = { 'deploy/prod.json': CFN_PARAMS('2') };
    expect(await states(base, { 'deploy/prod.json': CFN_PARAMS('4') })).toEqual([
      ['deploy/prod.json', 'not-followed', 'parameter-file: deploy/prod.json'],
    ]);
  });
});
