import { describe, expect, it } from 'vitest';
import { yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);
const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

const eksctl = (size: string, type = 'instanceType: p4d.24xlarge') => yaml`
  apiVersion: eksctl.io/v1alpha5
  kind: ClusterConfig
  metadata:
    name: c
  managedNodeGroups:
    - name: cpu
      instanceType: m5.large
      maxSize: 50
    - name: gpu
      ${type}
      minSize: 0
      ${size}
  #  - name: old-gpu
  #    instanceType: p5.48xlarge
  #    maxSize: 10
`;

describe('eksctl', () => {
  it('counts maxSize × GPUs per instance, skipping CPU and commented-out groups', () => {
    expect(counts(detectFile('cluster.yaml', eksctl('maxSize: 4')))).toEqual([['eksctl-nodegroup', 'gpu', 32]]);
  });

  it('does not count a size eksctl refuses: a string or a fraction where its Go type is an int', () => {
    for (const size of ['"4"', '4.5']) {
      const r = detectFile('cluster.yaml', eksctl(`maxSize: ${size}`));
      expect(counts(r), size).toEqual([]);
      expect(
        r.unresolved?.map((u) => u.name),
        size,
      ).toEqual(['gpu']);
    }
  });

  it('falls back to desiredCapacity', () => {
    expect(counts(detectFile('cluster.yaml', eksctl('desiredCapacity: 2')))).toEqual([['eksctl-nodegroup', 'gpu', 16]]);
  });

  it('reads instanceTypes lists at the most GPUs per instance, and says so', () => {
    const r = detectFile('cluster.yaml', eksctl('maxSize: 2', 'instanceTypes: ["g5.xlarge", "g5.12xlarge"]'));
    expect(counts(r)).toEqual([['eksctl-nodegroup', 'gpu', 8]]);
    expect(r.diagnostics.some((d) => d.severity === 'info' && d.message.includes('differ in GPUs'))).toBe(true);
  });

  it('flags a templated size and an unknown GPU type', () => {
    const templated = detectFile('cluster.yaml', eksctl('maxSize: ${MAX}'));
    expect(templated.decls).toEqual([]);
    expect(warnings(templated)[0]?.message).toContain('${MAX}');
    const unknown = detectFile('cluster.yaml', eksctl('maxSize: 2', 'instanceType: p9.48xlarge'));
    expect(unknown.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(warnings(unknown)[0]?.message).toContain('p9.48xlarge is not in the catalog');
  });

  it('compares base and head', () => {
    const changes = compareSides(detectFile('c.yaml', eksctl('maxSize: 4')), detectFile('c.yaml', eksctl('maxSize: 6')));
    expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([
      ['eksctl-nodegroup', 'gpu', 32, 48, 'A100'],
    ]);
  });
});
