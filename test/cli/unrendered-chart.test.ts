import { afterEach, describe, expect, it } from 'vitest';
import { detectJson } from './detect-json.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * A chart whose head render cannot be made (its values not valid YAML, a `required` value gone, a
 * `fail` reached, a values file of its own that does not parse): through the CLI on git refs, the
 * objects its templates rendered at the base are unknown at head, an error on their file, never
 * listed as removed (`4 → 0`). A render that does run and leaves an object out still removes it.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const CHART = 'charts/pool';

function queueTemplate(name: string, gpus: string, guard = ''): string {
  return `${guard}apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;
}

interface Shape {
  name: string;
  files: Record<string, string>;
  /** The changed file and what the head writes there. */
  path: string;
  head: string;
  /** The objects the base renders, and whether the head's render leaves them unknown (else removed). */
  queues: string[];
  unknown: boolean;
}

function generator(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

const shapes: Shape[] = [];
for (let i = 0; i < 2; i++) {
  const pick = generator(2026_12_07 + 13 * i);
  const gpus = 1 + pick(16);
  const q = `queue-${pick(1000)}`;
  const chart = { [`${CHART}/Chart.yaml`]: 'apiVersion: v2\nname: pool\nversion: 0.1.0\n' };
  shapes.push(
    {
      name: `${q} of ${gpus}: the values not valid YAML`,
      files: {
        ...chart,
        [`${CHART}/templates/q.yaml`]: queueTemplate(q, '{{ .Values.gpus }}'),
        [`${CHART}/values.yaml`]: `gpus: ${gpus}\n`,
      },
      path: `${CHART}/values.yaml`,
      head: `gpus: [${gpus * 2}\n`,
      queues: [q],
      unknown: true,
    },
    {
      name: `${q} of ${gpus}: a required value dropped`,
      files: {
        ...chart,
        [`${CHART}/templates/q.yaml`]: queueTemplate(q, '{{ required "gpus is required" .Values.gpus }}'),
        [`${CHART}/values.yaml`]: `gpus: ${gpus}\n`,
      },
      path: `${CHART}/values.yaml`,
      head: `gpu: ${gpus * 2}\n`,
      queues: [q],
      unknown: true,
    },
    {
      name: `${q} and ${q}-b of ${gpus}: a fail reached`,
      files: {
        ...chart,
        [`${CHART}/templates/q.yaml`]: `${queueTemplate(q, '{{ .Values.gpus }}', '{{ if not .Values.ok }}{{ fail "not ok" }}{{ end }}\n')}---\n${queueTemplate(`${q}-b`, '{{ .Values.gpus }}')}`,
        [`${CHART}/values.yaml`]: `ok: true\ngpus: ${gpus}\n`,
      },
      path: `${CHART}/values.yaml`,
      head: `ok: false\ngpus: ${gpus * 2}\n`,
      queues: [q, `${q}-b`],
      unknown: true,
    },
    {
      name: `${q} of ${gpus}: a second values file of the chart not valid YAML`,
      files: {
        ...chart,
        [`${CHART}/templates/q.yaml`]: queueTemplate(q, '{{ .Values.gpus }}'),
        [`${CHART}/values.yaml`]: 'gpus: 1\n',
        [`${CHART}/values-prod.yaml`]: `gpus: ${gpus}\n`,
      },
      path: `${CHART}/values-prod.yaml`,
      head: `gpus: {${gpus * 2}\n`,
      queues: [q],
      unknown: true,
    },
    {
      name: `${q} of ${gpus}: the head's render runs and leaves it out`,
      files: {
        ...chart,
        [`${CHART}/templates/q.yaml`]: `{{- if .Values.enabled }}\n${queueTemplate(q, '{{ .Values.gpus }}')}{{- end }}\n`,
        [`${CHART}/values.yaml`]: `enabled: true\ngpus: ${gpus}\n`,
      },
      path: `${CHART}/values.yaml`,
      head: `enabled: false\ngpus: ${gpus}\n`,
      queues: [q],
      unknown: false,
    },
  );
}

describe('a chart whose head render cannot be made, through the CLI', () => {
  it.each(shapes)(
    '$name',
    async (s) => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      git(tmp.path, 'init', '-q');
      await writeFiles(tmp.path, s.files);
      const base = commitAll(tmp.path, 'base');
      await writeFiles(tmp.path, { [s.path]: s.head });
      const head = commitAll(tmp.path, 'head');
      const { json } = await detectJson('--repo', tmp.path, '--base', base, '--head', head);
      const removed = json.changes.filter((c) => c.gpusAfter === 0 && c.gpusBefore > 0);
      if (!s.unknown) {
        expect(removed).toHaveLength(s.queues.length);
        return;
      }
      expect(removed).toEqual([]);
      expect(json.coverage.find((c) => c.file === s.path)?.state).toBe('not-followed');
      const errors = json.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
      for (const q of s.queues)
        expect(errors.some((m) => m.startsWith(`${q}: the GPU count after this change could not be read`))).toBe(true);
    },
    120_000,
  );
});
