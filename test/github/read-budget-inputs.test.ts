import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';

/**
 * The read budget counts the files readers fetch beside the changed ones, not only the changed
 * files: a two-line change to a chart's template, an overlay or a module call makes the review read
 * the chart's values, the kustomize base or the module, each as large as the pull request's author
 * made it before. Past the budget such a file is named, and the review fails closed in enforce
 * mode, through the real App over HTTP against the strict fake GitHub.
 */

const h = useApp();
const env = { ...process.env };
const BUDGET_MB = 0.25;
/** Under a file's size limit, over the whole budget: the first read of it does not fit. */
const PADDED_BYTES = 400_000;

beforeEach(() => {
  process.env['GPU_JUSTIFY_REVIEW_READ_MB'] = String(BUDGET_MB);
});
afterEach(() => {
  process.env = { ...env };
});

const pad = (text: string, comment = '#') => `${text}${comment} ${'x'.repeat(PADDED_BYTES - text.length)}\n`;

const QUEUE_TEMPLATE = (label: string) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
  labels:
    tier: ${label}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: {{ .Values.gpus }}
`;

const QUEUE = (gpus: number) => QUEUE_TEMPLATE('gold').replace('{{ .Values.gpus }}', String(gpus));

const POOL_MODULE = `variable "gpus" {}
resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  cluster    = "ml"
  node_count = var.gpus
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;

interface Beside {
  name: string;
  /** The file the pull request changes, at base and head. */
  changed: string;
  base: string;
  head: string;
  /** The unchanged file a reader of the changed one fetches, padded past the budget. */
  besidePath: string;
  shared: Record<string, string>;
}

const shapes: Beside[] = [
  {
    name: "a chart's values beside its changed template",
    changed: 'charts/pool/templates/queue.yaml',
    base: QUEUE_TEMPLATE('gold'),
    head: QUEUE_TEMPLATE('silver'),
    besidePath: 'charts/pool/values.yaml',
    shared: { 'charts/pool/Chart.yaml': 'apiVersion: v2\nname: pool\nversion: 0.1.0\n', 'charts/pool/values.yaml': pad('gpus: 8\n') },
  },
  {
    name: 'a kustomize base beside its changed overlay',
    changed: 'clusters/prod/kustomization.yaml',
    base: 'resources:\n  - ../base\n',
    head: 'resources:\n  - ../base\ncommonLabels:\n  env: prod\n',
    besidePath: 'clusters/base/queue.yaml',
    shared: { 'clusters/base/kustomization.yaml': 'resources:\n  - queue.yaml\n', 'clusters/base/queue.yaml': pad(QUEUE(8)) },
  },
  {
    name: 'a local module beside its changed call',
    changed: 'infra/main.tf',
    base: 'module "pool" {\n  source = "./modules/pool"\n  gpus   = 4\n}\n',
    head: 'module "pool" {\n  source = "./modules/pool"\n  gpus   = 8\n}\n',
    besidePath: 'infra/modules/pool/main.tf',
    shared: { 'infra/modules/pool/main.tf': pad(POOL_MODULE) },
  },
];

describe("files read beside the changed ones count in the review's read budget", () => {
  for (const shape of shapes) {
    it(`${shape.name}: named past the budget, and the check fails closed`, async () => {
      const s = pullRequest({}, ENFORCE_POLICY);
      const repo = new FakeRepo(h.fake, {
        ...s,
        baseFiles: { ...s.baseFiles, ...shape.shared, [shape.changed]: shape.base },
        headFiles: { ...s.baseFiles, ...shape.shared, [shape.changed]: shape.head },
      }).serve();

      expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
      await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', { what: 'the check concluded', timeoutMs: 60_000 });

      const check = repo.checkRuns.at(-1);
      expect(check?.conclusion).toBe('failure');
      const output = JSON.stringify(check?.output);
      expect(output).toContain(`read budget of ${BUDGET_MB} MB`);
      expect(output).toContain(shape.besidePath);
      // GitHub's answer for a file's size carries its text: the first side of the padded file is
      // downloaded (not parsed); once the budget is spent, the other side is not even asked.
      const served = h.fake.requests.reduce((sum, r) => sum + r.bytesSent, 0);
      expect(served).toBeLessThan(2 * PADDED_BYTES);
    }, 120_000);
  }
});
