import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

const RELEASE = 'clusters/prod/queues/release.yaml';
const DATA = 'clusters/prod/queues/values.yaml';

const release = (valuesFrom: string, namespace = 'ml') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queues
  namespace: ${namespace}
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/queues
      sourceRef:
        kind: GitRepository
        name: platform
  valuesFrom:
${valuesFrom}`;

const configMap = (data: string, namespace = 'ml', name = 'queue-values') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n${data}`;

const FROM_CM = '    - kind: ConfigMap\n      name: queue-values\n';

/** Base and head: the release unchanged, the ConfigMap's data from `before` to `after`. */
async function dataChange(before: string, after: string, valuesFrom = FROM_CM, write = configMap) {
  const tree = { ...QUEUE_CHART, [RELEASE]: release(valuesFrom) };
  return detectPr({ ...tree, [DATA]: write(before) }, { ...tree, [DATA]: write(after) });
}

describe("a Flux HelmRelease's valuesFrom", () => {
  it('reads a ConfigMap of its namespace beside it, at values.yaml unless a valuesKey says', async () => {
    const r = await dataChange('  values.yaml: |\n    queue:\n      gpus: 4\n', '  values.yaml: |\n    queue:\n      gpus: 12\n');
    expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 4, 12]]);
    expect(r.coverage.map((c) => c.state)).not.toContain('not-followed');
    const keyed = await dataChange(
      '  queues: |\n    queue:\n      gpus: 2\n',
      '  queues: |\n    queue:\n      gpus: 6\n',
      '    - kind: ConfigMap\n      name: queue-values\n      valuesKey: queues\n',
    );
    expect(changeRows(keyed).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 2, 6]]);
  });

  it('sets a single value at targetPath', async () => {
    const r = await dataChange(
      '  gpus: "4"\n',
      '  gpus: "16"\n',
      '    - kind: ConfigMap\n      name: queue-values\n      valuesKey: gpus\n      targetPath: queue.gpus\n',
    );
    expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 4, 16]]);
  });

  it("reads a Secret's stringData and base64 data", async () => {
    const secret = (data: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: queue-values\n  namespace: ml\n${data}`;
    const b64 = (n: number) => Buffer.from(`queue:\n  gpus: ${String(n)}\n`).toString('base64');
    const from = '    - kind: Secret\n      name: queue-values\n';
    const plain = await dataChange(
      'stringData:\n  values.yaml: |\n    queue:\n      gpus: 4\n',
      'stringData:\n  values.yaml: |\n    queue:\n      gpus: 8\n',
      from,
      secret,
    );
    expect(changeRows(plain).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 4, 8]]);
    const encoded = await dataChange(`data:\n  values.yaml: ${b64(4)}\n`, `data:\n  values.yaml: ${b64(10)}\n`, from, secret);
    expect(changeRows(encoded).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 4, 10]]);
  });

  it('is not followed when the object is twice there, without the key, or of no namespace', async () => {
    const cases: [string, (d: string) => string, string][] = [
      ['twice', (d) => `${configMap(d)}\n---\n${configMap(d)}`, 'more than one in the tree'],
      ['no key', (d) => configMap(d.replace('values.yaml', 'other.yaml')), 'no values.yaml in its data'],
      ['no namespace', (d) => configMap(d).replace('  namespace: ml\n', ''), 'in the tree with no namespace'],
    ];
    for (const [what, write, why] of cases) {
      const r = await dataChange(
        '  values.yaml: |\n    queue:\n      gpus: 4\n',
        '  values.yaml: |\n    queue:\n      gpus: 12\n',
        FROM_CM,
        write,
      );
      const notes = r.coverage.flatMap((c) => c.notFollowed ?? []);
      expect(notes, what).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ reason: 'gitops-install', inputs: [`valuesFrom ConfigMap/queue-values (${why})`] }),
        ]),
      );
      expect(r.changes, what).toEqual([]);
    }
  });

  it('leaves alone a ConfigMap of another namespace or name, which the release does not read', async () => {
    for (const write of [(d: string) => configMap(d, 'other'), (d: string) => configMap(d, 'ml', 'other-values')]) {
      const r = await dataChange(
        '  values.yaml: |\n    queue:\n      gpus: 4\n',
        '  values.yaml: |\n    queue:\n      gpus: 12\n',
        FROM_CM,
        write,
      );
      expect(r.changes).toEqual([]);
      expect(r.coverage.map((c) => c.state)).not.toContain('not-followed');
    }
  });

  it('is not followed when the release changes and its ConfigMap is not in the tree', async () => {
    const r = await detectPr(
      { ...QUEUE_CHART, [RELEASE]: release(FROM_CM) },
      { ...QUEUE_CHART, [RELEASE]: release(`${FROM_CM}      valuesKey: other.yaml\n`) },
    );
    expect(r.coverage).toEqual([
      expect.objectContaining({
        file: RELEASE,
        state: 'not-followed',
        notFollowed: [expect.objectContaining({ inputs: ['valuesFrom ConfigMap/queue-values (not in the tree beside the release)'] })],
      }),
    ]);
  });
});
