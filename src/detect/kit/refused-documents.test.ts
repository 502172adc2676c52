import { describe, expect, it } from 'vitest';
import { refusedDocuments } from './refused-documents.js';

const anchors = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchors\ndata:\n  n: &n "4"\n---\n';
/** Objects of kinds no capacity reader takes, and of one it does: the refusal is the same for all. */
const OBJECTS: Record<string, (v: string) => string> = {
  'a Volcano Job': (v) => `apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\nspec:\n  minAvailable: ${v}\n`,
  'a RayCluster': (v) =>
    `apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: r\nspec:\n  workerGroupSpecs:\n    - groupName: g\n      maxReplicas: ${v}\n`,
  'a Crossplane claim': (v) => `apiVersion: example.org/v1alpha1\nkind: XCluster\nmetadata:\n  name: x\nspec:\n  nodes:\n    count: ${v}\n`,
  'a Kueue ClusterQueue in flow style': (v) =>
    `{apiVersion: kueue.x-k8s.io/v1beta1, kind: ClusterQueue, metadata: {name: q}, spec: {resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors: [{name: f, resources: [{name: nvidia.com/gpu, nominalQuota: ${v}}]}]}]}}\n`,
};

describe('refusedDocuments', () => {
  it.each(Object.entries(OBJECTS))('names %s aliasing an anchor of another document, at the alias', (_, object) => {
    const text = `${anchors}${object('*n')}`;
    const [entry, ...rest] = refusedDocuments('apps/x.yaml', text);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ file: 'apps/x.yaml', reason: 'unreadable', subject: 'apps/x.yaml' });
    expect(entry?.line).toBe(text.split('\n').findIndex((l) => l.includes('*n')) + 1);
    expect(entry?.needs).toContain("unknown anchor 'n' referenced");
  });

  it.each(Object.entries(OBJECTS))('takes %s whose alias is of its own document as read', (_, object) => {
    expect(refusedDocuments('apps/x.yaml', `${anchors}${object('4')}`)).toEqual([]);
    const text = object('*m');
    const own = text.startsWith('{')
      ? text.replace('metadata: {', 'metadata: {annotations: {a: &m "4"}, ')
      : text.replace('metadata:\n', 'metadata:\n  annotations: {a: &m "4"}\n');
    expect(refusedDocuments('apps/x.yaml', own)).toEqual([]);
  });

  it('refuses a List whose item aliases another document once, and names the other refusals', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n    data: {a: *n, b: *n}\n`;
    const [entry, ...rest] = refusedDocuments('x.yml', `${anchors}${list}`);
    expect(rest).toEqual([]);
    expect(entry?.inputs).toEqual(["line 14: unknown anchor 'n' referenced"]);
  });

  it('leaves what is no Kubernetes object, a template and a JSON file to their readers', () => {
    expect(refusedDocuments('values.yaml', 'replicas: *n\n')).toEqual([]);
    expect(refusedDocuments('chart/templates/job.yaml', `${anchors}${OBJECTS['a Volcano Job']?.('{{ .Values.n }}') ?? ''}`)).toEqual([]);
    expect(refusedDocuments('README.md', `${anchors}${OBJECTS['a Volcano Job']?.('*n') ?? ''}`)).toEqual([]);
  });

  it('names a syntax error of an object', () => {
    const [entry] = refusedDocuments('x.yaml', 'apiVersion: v1\nkind: ConfigMap\ndata: [a\n');
    expect(entry?.reason).toBe('unreadable');
  });
});
