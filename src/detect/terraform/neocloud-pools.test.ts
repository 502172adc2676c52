import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEBIUS_PLATFORMS, OCI_GPU_SHAPES } from '../kit/gpu-types/neoclouds.js';
import { OTHER_GPU_TYPES } from '../kit/gpu-types/families.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/**
 * Nebius `nebius_mk8s_v1_node_group` (shaped as nebius/nebius-solution-library's k8s-training) and
 * OCI `oci_containerengine_node_pool` node pools, generated in the shapes real repositories write
 * them: the count written in the resource, given by a variable's default or by tfvars; the
 * settings as object attributes, blocks or a local; autoscaling or fixed. A GPU pool resized is
 * counted (nodes × the GPUs its preset or shape names); a CPU pool is no capacity; a pool whose
 * GPUs or nodes cannot be told is not followed, never "no change".
 */

type Via = 'literal' | 'default' | 'tfvars';

const NEBIUS_PRESETS = [
  ['1gpu-16vcpu-200gb', 1],
  ['8gpu-128vcpu-1600gb', 8],
  ['1gpu-8vcpu-32gb', 1],
  ['8gpu-160vcpu-1792gb', 8],
] as const;

interface NebiusShape {
  platform: string;
  preset: (typeof NEBIUS_PRESETS)[number];
  autoscaled: boolean;
  via: Via;
  /** The template through a local rather than written in the resource. */
  local: boolean;
  label: string;
}

const nebiusShapes = fc.record({
  platform: fc.constantFrom(...Object.keys(NEBIUS_PLATFORMS)),
  preset: fc.constantFrom(...NEBIUS_PRESETS),
  autoscaled: fc.boolean(),
  via: fc.constantFrom<Via>('literal', 'default', 'tfvars'),
  local: fc.boolean(),
  label: fc.constantFrom('gpu', 'workers', 'h100'),
});

function nebiusTree(s: NebiusShape, nodes: number, cpuNodes = 2): Record<string, string> {
  const count = s.via === 'literal' ? String(nodes) : 'var.gpu_nodes';
  const sizing = s.autoscaled
    ? `autoscaling = {\n    min_node_count = 0\n    max_node_count = ${count}\n  }`
    : `fixed_node_count = ${count}`;
  const template = `{
    resources = {
      platform = "${s.platform}"
      preset   = "${s.preset[0]}"
    }
    cloud_init_user_data = templatefile("../cloud-init/init.tftpl", { user = nebius_iam_v1_service_account.sa.id })
  }`;
  const main = `${s.local ? `locals {\n  gpu_template = ${template}\n}\n\n` : ''}resource "nebius_mk8s_v1_node_group" "${s.label}" {
  parent_id = nebius_mk8s_v1_cluster.k8s.id
  name      = join("-", ["ng", random_string.suffix.result])
  ${sizing}
  template = ${s.local ? 'local.gpu_template' : template}
}

resource "nebius_mk8s_v1_node_group" "cpu" {
  fixed_node_count = var.cpu_nodes
  template = {
    resources = {
      platform = var.cpu_platform
      preset   = "16vcpu-64gb"
    }
  }
}
`;
  const variables = `variable "gpu_nodes" {\n  type = number\n${s.via === 'default' ? `  default = ${String(nodes)}\n` : ''}}\n\nvariable "cpu_nodes" {\n  type = number\n}\n\nvariable "cpu_platform" {\n  type = string\n}\n`;
  return {
    'k8s/main.tf': main,
    'k8s/variables.tf': variables,
    'k8s/terraform.tfvars': `${s.via === 'tfvars' ? `gpu_nodes = ${String(nodes)}\n` : ''}cpu_nodes = ${String(cpuNodes)}\n`,
  };
}

const rows = async (base: Record<string, string>, head: Record<string, string>) => {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.kind, c.name, c.gpuModel, c.gpusBefore, c.gpusAfter]),
    notFollowed: r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file),
  };
};

describe('Nebius node groups', () => {
  it('a GPU group resized is counted: nodes × the GPUs its preset names, named by its label', async () => {
    await fc.assert(
      fc.asyncProperty(nebiusShapes, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), async (s, a, b) => {
        fc.pre(a !== b);
        const { changes, notFollowed } = await rows(nebiusTree(s, a), nebiusTree(s, b));
        const per = s.preset[1];
        expect(changes).toEqual([['nebius-node-group', s.label, NEBIUS_PLATFORMS[s.platform], a * per, b * per]]);
        expect(notFollowed).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('a CPU group resized beside it is no change, its platform unknown or not', async () => {
    await fc.assert(
      fc.asyncProperty(nebiusShapes, fc.integer({ min: 0, max: 9 }), async (s, cpu) => {
        const { changes, notFollowed } = await rows(nebiusTree(s, 2, cpu), nebiusTree(s, 2, cpu + 1));
        expect(changes).toEqual([]);
        expect(notFollowed).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  it('a GPU group whose preset or count cannot be told is not followed', async () => {
    const unknowns = fc.constantFrom(
      (t: string) => t.replace(/preset {3}= "[^"]+"/, 'preset   = var.gpu_preset'),
      (t: string) => t.replace(/preset {3}= "[^"]+"/, 'preset   = "custom"'),
      (t: string) => t.replace(/(max_node_count|fixed_node_count) = [^\n]+/, '$1 = nebius_compute_v1_gpu_cluster.fabric.size'),
    );
    await fc.assert(
      fc.asyncProperty(nebiusShapes, unknowns, fc.integer({ min: 0, max: 9 }), async (s, hide, cpu) => {
        const edit = (t: Record<string, string>) => ({ ...t, 'k8s/main.tf': hide(t['k8s/main.tf'] ?? '') });
        // What is left to tell changes: the count where the preset is hidden, the preset where the count is.
        const other = NEBIUS_PRESETS.find((p) => p[1] !== s.preset[1]) ?? s.preset;
        const base = nebiusTree({ ...s, via: 'literal' }, 2, cpu);
        const head = nebiusTree({ ...s, via: 'literal', preset: other }, 3, cpu);
        const { changes, notFollowed } = await rows(edit(base), edit(head));
        expect(changes).toEqual([]);
        expect(notFollowed).toContain('k8s/main.tf');
      }),
      { numRuns: 20 },
    );
  });
});

interface OciShape {
  shape: (typeof OCI_GPU_SHAPES)[number];
  via: Via;
  legacy: boolean;
  name: string;
}

const ociShapes = fc.record({
  shape: fc.constantFrom(...OCI_GPU_SHAPES),
  via: fc.constantFrom<Via>('literal', 'default', 'tfvars'),
  legacy: fc.boolean(),
  name: fc.constantFrom('gpu-pool', 'a100', 'workers'),
});

function ociTree(s: OciShape, nodes: number, shape: string = s.shape[0]): Record<string, string> {
  const count = s.via === 'literal' ? String(nodes) : 'var.gpu_nodes';
  const sizing = s.legacy
    ? `quantity_per_subnet = ${count}\n  subnet_ids          = [oci_core_subnet.workers.id]`
    : `node_config_details {\n    placement_configs {\n      availability_domain = data.oci_identity_availability_domains.ads.availability_domains[0].name\n      subnet_id           = oci_core_subnet.workers.id\n    }\n    size = ${count}\n  }`;
  return {
    'oke/main.tf': `resource "oci_containerengine_node_pool" "gpu" {
  cluster_id     = oci_containerengine_cluster.oke.id
  compartment_id = var.compartment_id
  name           = "${s.name}"
  node_shape     = "${shape}"
  ${sizing}
}
`,
    'oke/variables.tf': `variable "compartment_id" {}\n\nvariable "gpu_nodes" {\n  type = number\n${s.via === 'default' ? `  default = ${String(nodes)}\n` : ''}}\n`,
    'oke/terraform.tfvars': s.via === 'tfvars' ? `gpu_nodes = ${String(nodes)}\n` : '',
  };
}

describe('OCI OKE node pools', () => {
  it('a pool of a GPU shape resized is counted: size (or quantity per subnet × subnets) × the GPUs of its shape', async () => {
    await fc.assert(
      fc.asyncProperty(ociShapes, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), async (s, a, b) => {
        fc.pre(a !== b);
        const { changes, notFollowed } = await rows(ociTree(s, a), ociTree(s, b));
        const [, per, model] = s.shape;
        expect(changes).toEqual([['oci-node-pool', s.name, model, a * per, b * per]]);
        expect(notFollowed).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('a pool of a CPU shape resized is no change; of an unlisted GPU shape, not followed', async () => {
    await fc.assert(
      fc.asyncProperty(
        ociShapes,
        fc.constantFrom('VM.Standard.E4.Flex', 'VM.Standard3.Flex', 'BM.Standard.E5.192', 'VM.Standard.A1.Flex'),
        async (s, cpu) => {
          const same = await rows(ociTree(s, 2, cpu), ociTree(s, 3, cpu));
          expect(same).toEqual({ changes: [], notFollowed: [] });
          const odd = await rows(
            ociTree({ ...s, via: 'literal' }, 2, 'BM.GPU.X99.8'),
            ociTree({ ...s, via: 'literal' }, 3, 'BM.GPU.X99.8'),
          );
          expect(odd.changes).toEqual([]);
          expect(odd.notFollowed).toContain('oke/main.tf');
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('the lists of Nebius platforms and OCI GPU shapes', () => {
  const floor = (cloud: string) => OTHER_GPU_TYPES.find((t) => t.cloud === cloud)?.pattern;
  it('are each a GPU signal of the floor, so a pool the reader misses is still flagged', () => {
    for (const platform of Object.keys(NEBIUS_PLATFORMS)) expect(`platform = "${platform}"`.match(floor('Nebius') ?? /$^/)).not.toBeNull();
    for (const [shape] of OCI_GPU_SHAPES) expect(`node_shape = "${shape}"`.match(floor('OCI') ?? /$^/)).not.toBeNull();
  });
});
