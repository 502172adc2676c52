import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

/**
 * helmfile's environments and bases, generated across where the helmfile sits, how it is written
 * (plain with a `.gotmpl` values file, a templated `helmfile.yaml.gotmpl`, `valuesTemplate`) and
 * which state file changes (an environment's values, a base). What feeds a release of a chart of
 * this repository through a template must never pass as no change: it is not followed, on the
 * changed file, even when it names no GPU. A state file nothing templated reads is no input.
 */

type Place = { dir: string; name: string };
const PLACES: Place[] = [
  { dir: '', name: 'helmfile.yaml' },
  { dir: 'deploy', name: 'helmfile.yaml' },
  { dir: 'helmfile.d', name: '10-queues.yaml' },
];
type Form = 'gotmpl-values' | 'values-template' | 'templated-helmfile';
const FORMS: Form[] = ['gotmpl-values', 'values-template', 'templated-helmfile'];
type Feed = 'environment' | 'base';

const rel = (from: string, to: string) => `${from === '' ? '' : '../'.repeat(from.split('/').length)}${to}`;

function treeOf(place: Place, form: Form, feed: Feed, quota: number): Tree {
  const chart = rel(place.dir, 'charts/queues');
  const env = rel(place.dir, 'env/prod.yaml');
  const base = rel(place.dir, 'env/common.yaml');
  const envBlock = feed === 'environment' ? `environments:\n  prod:\n    values:\n      - ${env}\n---\n` : `bases:\n  - ${base}\n---\n`;
  const release =
    form === 'gotmpl-values'
      ? `releases:\n  - name: queues\n    chart: ./${chart}\n    values:\n      - ${rel(place.dir, 'values/queues.yaml.gotmpl')}\n`
      : form === 'values-template'
        ? `releases:\n  - name: queues\n    chart: ./${chart}\n    valuesTemplate:\n      - queue: {gpus: 8}\n`
        : `releases:\n  - name: queues\n    chart: ./${chart}\n    set:\n      - name: queue.gpus\n        value: {{ .Environment.Values.teamQuota }}\n`;
  const file = form === 'templated-helmfile' ? `${place.name}.gotmpl` : place.name;
  const path = place.dir === '' ? file : `${place.dir}/${file}`;
  return {
    ...QUEUE_CHART,
    [path]: `${envBlock}${release}`,
    'values/queues.yaml.gotmpl': 'queue:\n  gpus: {{ .Environment.Values.teamQuota }}\n',
    [feed === 'environment' ? 'env/prod.yaml' : 'env/common.yaml']:
      feed === 'environment' ? `teamQuota: ${quota}\n` : `environments:\n  prod:\n    values:\n      - teamQuota: ${quota}\n`,
  };
}

const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('helmfile environments and bases feeding a release through its templates', () => {
  for (const place of PLACES)
    for (const form of FORMS)
      for (const feed of ['environment', 'base'] as const) {
        // A templated helmfile names its files by text; one in helmfile.d/ is still a helmfile.
        const changed = feed === 'environment' ? 'env/prod.yaml' : 'env/common.yaml';
        it(`${place.dir || '(root)'}/${place.name}, ${form}: a changed ${feed} file is not followed, not "no change"`, async () => {
          const r = await detectPr(treeOf(place, form, feed, 8), treeOf(place, form, feed, 16));
          expect(changeRows(r)).toEqual([]);
          expect(notFollowed(r)).toContain(changed);
        });
      }

  it('an environment file no template reads is no input: a change to it is left alone', async () => {
    const tree = (q: number): Tree => ({
      ...QUEUE_CHART,
      'helmfile.yaml': `environments:\n  prod:\n    values: [env/prod.yaml]\n---\nreleases:\n  - name: queues\n    chart: ./charts/queues\n    values: [{queue: {gpus: 8}}]\n`,
      'env/prod.yaml': `teamQuota: ${q}\n`,
    });
    const r = await detectPr(tree(8), tree(16));
    expect(changeRows(r)).toEqual([]);
    expect(notFollowed(r)).toEqual([]);
  });
});
