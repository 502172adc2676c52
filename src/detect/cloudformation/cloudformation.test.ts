import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { cloudFormationParser } from './cloudformation.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** A self-managed node group as AWS's amazon-eks-nodegroup template declares one (trimmed). */
const template = (maxSize: number | null, type = 'p4d.24xlarge') => `AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  NodeInstanceType:
    Type: String
    Default: ${type}
  NodeAutoScalingGroupMaxSize:
    Type: Number
${maxSize === null ? '' : `    Default: ${maxSize}\n`}Resources:
  NodeLaunchTemplate:
    Type: "AWS::EC2::LaunchTemplate"
    Properties:
      LaunchTemplateData:
        InstanceType: !Ref NodeInstanceType
        ImageId: !Ref NodeImageId
  NodeGroup:
    Type: "AWS::AutoScaling::AutoScalingGroup"
    Properties:
      DesiredCapacity: 1
      LaunchTemplate:
        LaunchTemplateId: !Ref NodeLaunchTemplate
        Version: !GetAtt NodeLaunchTemplate.LatestVersionNumber
      MaxSize: !Ref NodeAutoScalingGroupMaxSize
      MinSize: 0
`;
const FILE = 'eks/nodegroup.yaml';

describe('CloudFormation self-managed node groups', () => {
  it('are MaxSize × the GPUs of the launch template instance type, parameters at their defaults', () => {
    const r = cloudFormationParser.parse(FILE, template(4));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.gpuStep, d.line])).toEqual([
      ['eks-node-group', 'NodeGroup', 'A100', 32, 8, lineIn(template(4), 'MaxSize: !Ref')],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a raised default is a change', async () => {
    expect(changeRows(await detectPr({ [FILE]: template(4) }, { [FILE]: template(8) })).map((r) => r.slice(0, 5))).toEqual([
      ['eks-node-group', 'NodeGroup', 32, 64, 'A100'],
    ]);
  });

  it('a parameter given only at deploy time is a warning at MaxSize, and the group is kept as unknown', () => {
    const r = cloudFormationParser.parse(FILE, template(null));
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'eks-node-group', name: 'NodeGroup' })]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message:
          'AWS::AutoScaling::AutoScalingGroup NodeGroup: MaxSize comes from parameter NodeAutoScalingGroupMaxSize, which has no Default (its value is given at deploy time); its GPUs are not counted',
      }),
    ]);
  });

  it('reads mixed-instances overrides and long-form Ref; types that differ in GPUs leave no node step', () => {
    const mixed = `Resources:
  Gpu:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      MaxSize: { "Ref": "Max" }
      MixedInstancesPolicy:
        LaunchTemplate:
          Overrides:
            - InstanceType: g5.12xlarge
            - InstanceType: g5.48xlarge
Parameters:
  Max:
    Type: Number
    Default: 2
`;
    const r = cloudFormationParser.parse('asg.yaml', mixed);
    expect(r.decls.map((d) => [d.name, d.gpus, d.gpuStep])).toEqual([['Gpu', 16, undefined]]);
  });

  it('a template that is not valid YAML says so, at the error', () => {
    const r = cloudFormationParser.parse(FILE, template(4).replace('    Type: Number\n', '    Type: [Number\n'));
    expect(r.decls).toEqual([]);
    expect(r.diagnostics).toEqual([
      match.objectContaining({ severity: 'warning', message: match.stringContaining('this CloudFormation template is not valid YAML') }),
    ]);
  });

  it('CPU groups and templates without groups are nothing', () => {
    expect(cloudFormationParser.parse(FILE, template(4, 'm5.large'))).toEqual({ decls: [], diagnostics: [], unresolved: [] });
    expect(cloudFormationParser.mightContain('bucket.yaml', 'Resources:\n  B:\n    Type: AWS::S3::Bucket\n')).toBe(false);
  });
});
