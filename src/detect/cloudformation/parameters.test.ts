import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

const TEMPLATE = `AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  InstanceType:
    Type: String
    Default: m5.large
  MaxSize:
    Type: Number
    Default: 2
Resources:
  LaunchTemplate:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        InstanceType: !Ref InstanceType
  Group:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      MinSize: 0
      MaxSize: !Ref MaxSize
      LaunchTemplate:
        LaunchTemplateId: !Ref LaunchTemplate
        Version: "1"
`;
const params = (type: string, max?: string) =>
  JSON.stringify(
    [{ ParameterKey: 'InstanceType', ParameterValue: type }, ...(max ? [{ ParameterKey: 'MaxSize', ParameterValue: max }] : [])],
    null,
    2,
  );

describe('CloudFormation parameter files paired with their template', () => {
  for (const name of ['nodes-parameters.json', 'nodes-params.json', 'nodes.parameters.json']) {
    it(`${name} sizes nodes.yaml in place of its Defaults`, async () => {
      const base = { 'cfn/nodes.yaml': TEMPLATE, [`cfn/${name}`]: params('m5.large') };
      const r = await detectPr(base, { ...base, [`cfn/${name}`]: params('g5.12xlarge', '3') });
      expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['Group', 0, 12]]);
      expect(r.coverage.map((c) => c.state)).toEqual(['read']);
    });
  }

  it('a Default the file overrides is not what is deployed', async () => {
    const base = { 'cfn/nodes.yaml': TEMPLATE, 'cfn/nodes-parameters.json': params('m5.large') };
    const r = await detectPr(base, { ...base, 'cfn/nodes.yaml': TEMPLATE.replace('Default: m5.large', 'Default: p4d.24xlarge') });
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((c) => c.state)).toEqual(['read']);
  });

  it('a value kept from the deployed stack is unknown', async () => {
    const kept = JSON.stringify([{ ParameterKey: 'InstanceType', UsePreviousValue: true }]);
    const base = {
      'cfn/nodes.yaml': TEMPLATE.replace('Default: m5.large', 'Default: g5.xlarge'),
      'cfn/nodes-parameters.json': params('g5.xlarge'),
    };
    const r = await detectPr(base, { ...base, 'cfn/nodes-parameters.json': kept });
    expect(r.coverage.map((c) => c.state)).toEqual(['not-followed']);
  });

  // The template renamed away from its parameter file's name: paired by the keys the file sets.
  for (const template of ['cfn/renamed-nodes.yaml', 'cfn/node-group.yml', 'cfn/stack.template.json'.replace('.json', '.yaml')]) {
    it(`a Default the file overrides stays not deployed with the template renamed to ${template}`, async () => {
      const base = { [template]: TEMPLATE, 'cfn/nodes-parameters.json': params('m5.large', '2') };
      const r = await detectPr(base, { ...base, [template]: TEMPLATE.replace('Default: m5.large', 'Default: p4d.24xlarge') });
      expect(r.changes).toEqual([]);
      expect(r.coverage.map((c) => c.state)).toEqual(['read']);
      // The file changed alone is read without the template it no longer names: never a silent pass.
      const grown = await detectPr(base, { ...base, 'cfn/nodes-parameters.json': params('g5.12xlarge', '3') });
      expect(grown.changes.length > 0 || grown.coverage.some((c) => c.state === 'not-followed')).toBe(true);
    });
  }

  it('a file whose keys the template does not declare, or whose own template is here, is not paired by content', async () => {
    const other = JSON.stringify([{ ParameterKey: 'VpcCidr', ParameterValue: '10.0.0.0/16' }]);
    const base = { 'cfn/renamed-nodes.yaml': TEMPLATE, 'cfn/vpc-parameters.json': other };
    const r = await detectPr(base, { ...base, 'cfn/renamed-nodes.yaml': TEMPLATE.replace('Default: m5.large', 'Default: p4d.24xlarge') });
    expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['Group', 0, 16]]);
  });
});
