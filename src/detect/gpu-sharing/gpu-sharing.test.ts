import { describe, expect, it } from 'vitest';
import { lineOf, yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);
const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

const sharing = (replicas: string) => yaml`
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: plugin-config
  data:
    shared: |-
      version: v1
      sharing:
        timeSlicing:
          renameByDefault: true
          resources:
            - name: nvidia.com/gpu
              replicas: ${replicas}
`;

describe('GPU sharing', () => {
  it('reads a config held in a ConfigMap string, at its line in the file', () => {
    const text = sharing('4');
    const r = detectFile('cm.yaml', text);
    expect(counts(r)).toEqual([['gpu-sharing', 'plugin-config/shared', 4]]);
    expect(r.decls[0]?.line).toBe(lineOf(text, 'replicas:'));
    expect(r.decls[0]?.parts[0]?.resource).toBe('nvidia.com/gpu.shared');
    expect(r.diagnostics.some((d) => d.severity === 'info' && d.message.includes('not the hardware'))).toBe(true);
  });

  it('prices nothing: sharing buys no hardware', () => {
    const [change] = compareSides(detectFile('cm.yaml', sharing('2')), detectFile('cm.yaml', sharing('8')));
    expect(change).toMatchObject({ kind: 'gpu-sharing', gpusBefore: 2, gpusAfter: 8, usdPerGpuHour: null, usdPerMonthDelta: null });
  });

  it('does not count a MIG layout with a negative or absurd device count, and says why', () => {
    const layout = (count: string) => yaml`
      version: v1
      mig-configs:
        all-1g.5gb:
          - devices: all
            mig-enabled: true
            mig-devices:
              "1g.5gb": ${count}
    `;
    expect(counts(detectFile('mig.yaml', layout('7')))).toEqual([['gpu-sharing', 'mig-parted/all-1g.5gb', 7]]);
    for (const bad of ['-3', '1.7976931348623157e+308']) {
      const r = detectFile('mig.yaml', layout(bad));
      expect(r.decls).toEqual([]);
      expect(warnings(r)[0]?.message).toMatch(/mig-devices count .*(negative|not a real count)/);
    }
  });

  it('flags templated replicas', () => {
    const r = detectFile('cm.yaml', sharing('${REPLICAS}'));
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('${REPLICAS}');
  });
});
