import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';
import type { Tree } from './listing-tree.js';

/**
 * A node group of a provider no reader knows, shaped as nebius/nebius-solution-library's
 * `nebius_mk8s_v1_node_group` (read since: neocloud-pools.test.ts) is: its GPU platform and
 * settings in a `template` argument that also renders a cloud-init `templatefile()`, generated in
 * many shapes. The render cannot be told, so
 * the review cannot read the group: a change that sizes it, in the `.tf` file or through a
 * `.tfvars` value under a GPU key, must end not followed, never "no change", whether the render
 * can be told or not. A CPU group's count changed beside it counts nothing.
 */

const TYPES = ['nimbus_mk8s_v1_node_group', 'acme_kubernetes_node_pool', 'cloudco_k8s_worker_group'];
const HOLDERS = ['template', 'spec', 'node_template'];
const COUNTS = ['fixed_node_count', 'node_count', 'size', 'max_size'];
const PLATFORMS = ['gpu-h100-sxm', 'gpu-h200-sxm', 'gpu-l40s-a'];

interface Shape {
  type: string;
  holder: string;
  count: string;
  platform: string;
  label: string;
  /** The count written in the resource, or given by `var.gpu_nodes_count`. */
  viaVariable: boolean;
  /** The render's vars known (a tfvars value), or not (another resource's attribute, known once applied). */
  renderKnown: boolean;
  before: number;
  after: number;
}

const shapes = fc.record({
  type: fc.constantFrom(...TYPES),
  holder: fc.constantFrom(...HOLDERS),
  count: fc.constantFrom(...COUNTS),
  platform: fc.constantFrom(...PLATFORMS),
  label: fc.constantFrom('gpu', 'workers', 'accel'),
  viaVariable: fc.boolean(),
  renderKnown: fc.boolean(),
  before: fc.integer({ min: 0, max: 64 }),
  after: fc.integer({ min: 0, max: 64 }),
});

function mainTf(s: Shape, count: number): string {
  return `resource "${s.type}" "${s.label}" {
  ${s.count} = ${s.viaVariable ? 'var.gpu_nodes_count' : String(count)}
  description = "GPU workers"
  ${s.holder} = {
    resources = {
      platform = "${s.platform}"
      preset   = "8gpu-128vcpu-1600gb"
    }
    cloud_init_user_data = templatefile("\${path.module}/init.tftpl", { user = ${s.renderKnown ? 'var.ssh_user' : 'cloudco_filesystem.shared.id'} })
  }
}

resource "${s.type}" "cpu" {
  ${s.count} = var.cpu_nodes_count
}
`;
}

const VARIABLES = `variable "gpu_nodes_count" {
  type = number
}

variable "cpu_nodes_count" {
  type = number
}

variable "ssh_user" {
  type = string
}
`;

function tree(s: Shape, count: number, cpu: number): Tree {
  return {
    'infra/main.tf': mainTf(s, count),
    'infra/variables.tf': VARIABLES,
    'infra/init.tftpl': 'users:\n  - name: ${user}\n',
    'infra/terraform.tfvars': `gpu_nodes_count = ${String(count)}\ncpu_nodes_count = ${String(cpu)}\nssh_user = "ops"\n`,
  };
}

async function review(base: Tree, head: Tree) {
  const result = await detectChanges(listingPr(base, head));
  return { changes: result.changes, notFollowed: result.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file) };
}

describe('a GPU node group of an unread provider that renders a template', () => {
  it('is not followed when what sizes it changes, in the .tf file or its tfvars', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapes.filter((s) => s.before !== s.after),
        async (s) => {
          const { changes, notFollowed } = await review(tree(s, s.before, 2), tree(s, s.after, 2));
          expect(changes).toEqual([]);
          expect(notFollowed).toContain(s.viaVariable ? 'infra/terraform.tfvars' : 'infra/main.tf');
        },
      ),
      { numRuns: 40 },
    );
  });

  // A changed value is traced block by block (docs/change-kinds.md): a CPU group's count beside
  // the unread GPU group reaches no GPU, so it is no change, not even not followed.
  it("counts nothing for a CPU group's count changed beside it, and follows it", async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.integer({ min: 0, max: 9 }), async (s, cpu) => {
        const { changes, notFollowed } = await review(tree(s, s.before, cpu), tree(s, s.before, cpu + 1));
        expect(changes).toEqual([]);
        expect(notFollowed).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
