import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * What a changed value reaches is traced block by block, not module by module: in a module that
 * declares a GPU group no reader counts beside a CPU twin of it, the CPU twin's count changing is
 * no change, the GPU group's is not followed. Generated over the unread declarations, over where
 * the two values are written, and over what the CPU twin is built from where that may name a GPU
 * (a variable nothing sets here, a launch template naming one): those stay not followed.
 */

/** GPU declarations no reader counts; `SIZE` is the value under test, `POOL` its name. */
const UNREAD: Record<string, string> = {
  'aws_instance count': `resource "aws_instance" "POOL" {
  count         = SIZE
  ami           = "ami-123"
  instance_type = "TYPE"
}
`,
  'azurerm_linux_virtual_machine_scale_set instances': `resource "azurerm_linux_virtual_machine_scale_set" "POOL" {
  name                = "POOL"
  resource_group_name = "rg"
  location            = "eastus"
  sku                 = "TYPE"
  instances           = SIZE
  admin_username      = "azureuser"
}
`,
  'google_compute_instance_group_manager target_size': `resource "google_compute_instance_template" "POOL" {
  machine_type = "TYPE"
  disk {
    source_image = "cos-cloud/cos-stable"
  }
}

resource "google_compute_instance_group_manager" "POOL" {
  name               = "POOL"
  zone               = "us-east4-a"
  base_instance_name = "POOL"
  target_size        = SIZE
  version {
    instance_template = google_compute_instance_template.POOL.id
  }
}
`,
};

/** The GPU and CPU machine types of each declaration's provider. */
const TYPES: Record<string, [gpu: string, cpu: string]> = {
  'aws_instance count': ['p5.48xlarge', 'm6i.large'],
  'azurerm_linux_virtual_machine_scale_set instances': ['Standard_ND96asr_v4', 'Standard_D8s_v5'],
  'google_compute_instance_group_manager target_size': ['a3-highgpu-8g', 'n2-standard-8'],
};

type Tree = Record<string, string>;

/** Both groups, the GPU one sized by `gpuSize` and the CPU twin by `cpuSize`. */
function pools(decl: string, types: [string, string], gpuSize: string, cpuSize: string): string {
  const one = (pool: string, type: string, size: string) => decl.replaceAll('POOL', pool).replace('TYPE', type).replace('SIZE', size);
  return `${one('gpu', types[0], gpuSize)}\n${one('cpu', types[1], cpuSize)}`;
}

/**
 * Where the two values are written. Their names name no GPU: a key such as `gpu_workers` in the
 * changed file is the floor's to judge (kit/signal-scan), whatever it reaches.
 */
const CARRIERS: Record<string, (decl: string, types: [string, string], gpu: number, cpu: number) => Tree> = {
  "variables' defaults": (d, t, g, c) => ({
    'infra/main.tf': pools(d, t, 'var.trainers', 'var.web_workers'),
    'infra/variables.tf': `variable "trainers" {\n  type    = number\n  default = ${g}\n}\n\nvariable "web_workers" {\n  default = ${c}\n}\n`,
  }),
  'locals, one through another': (d, t, g, c) => ({
    'infra/main.tf': pools(d, t, 'local.trainers', 'local.web_workers'),
    'infra/locals.tf': `locals {\n  base        = ${c}\n  web_workers = local.base + 0\n  trainers = ${g}\n}\n`,
  }),
  'terraform.tfvars': (d, t, g, c) => ({
    'infra/main.tf': pools(d, t, 'var.trainers', 'var.web_workers'),
    'infra/variables.tf': 'variable "trainers" {}\n\nvariable "web_workers" {}\n',
    'infra/terraform.tfvars': `trainers = ${g}\nweb_workers = ${c}\n`,
  }),
  "a local module call's arguments": (d, t, g, c) => ({
    'main.tf': `module "pools" {\n  source      = "./modules/pools"\n  trainers = ${g}\n  web_workers = ${c}\n}\n`,
    'modules/pools/main.tf': `variable "trainers" {}\nvariable "web_workers" {}\n\n${pools(d, t, 'var.trainers', 'var.web_workers')}`,
  }),
  "a Terragrunt unit's inputs": (d, t, g, c) => ({
    'live/prod/pools/terragrunt.hcl': `terraform {\n  source = "../../../modules//pools"\n}\n\ninputs = {\n  trainers = ${g}\n  web_workers = ${c}\n}\n`, // fixture path: data, never read
    'modules/pools/main.tf': `variable "trainers" {}\nvariable "web_workers" {}\n\n${pools(d, t, 'var.trainers', 'var.web_workers')}`,
  }),
};

const flagged = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
const changedFiles = (base: Tree, head: Tree) => Object.keys(head).filter((p) => base[p] !== head[p]);

describe('a changed value traced to the block it sizes', () => {
  for (const [declName, decl] of Object.entries(UNREAD)) {
    const types = TYPES[declName] as [string, string];
    for (const [where, tree] of Object.entries(CARRIERS)) {
      it(`${declName} in ${where}: the CPU twin's count 2 → 5 is no change`, async () => {
        const r = await detectPr(tree(decl, types, 3, 2), tree(decl, types, 3, 5));
        expect(r.changes).toEqual([]);
        expect(flagged(r)).toEqual([]);
      });

      it(`${declName} in ${where}: the GPU group's count 3 → 9 is not followed`, async () => {
        const [base, head] = [tree(decl, types, 3, 2), tree(decl, types, 9, 2)];
        const r = await detectPr(base, head);
        expect(r.changes).toEqual([]);
        expect(flagged(r)).toEqual(changedFiles(base, head));
      });
    }
  }
});

describe('a CPU-looking block built from what may name a GPU stays not followed', () => {
  const GPU = UNREAD['aws_instance count'] ?? '';
  const group = (name: string, size: string, type: string) => GPU.replaceAll('POOL', name).replace('SIZE', size).replace('"TYPE"', type);

  it('its machine type from a variable nothing here sets (the command line, the environment)', async () => {
    const tree = (n: number): Tree => ({
      'infra/main.tf': `${group('gpu', '2', '"p5.48xlarge"')}\n${group('other', 'var.other_workers', 'var.other_type')}`,
      'infra/variables.tf': `variable "other_type" {\n  type = string\n}\n\nvariable "other_workers" {\n  default = ${n}\n}\n`,
    });
    const r = await detectPr(tree(2), tree(5));
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toEqual(['infra/variables.tf']);
  });

  it("its machine type from a variable a variable file sets to a GPU type, beside the variable's CPU default", async () => {
    const tree = (n: number): Tree => ({
      'infra/main.tf': `${group('gpu', '2', '"p5.48xlarge"')}\n${group('other', 'var.other_workers', 'var.other_type')}`,
      'infra/variables.tf': `variable "other_type" {\n  default = "m6i.large"\n}\n\nvariable "other_workers" {\n  default = ${n}\n}\n`,
      'infra/prod.auto.tfvars': 'other_type = "g6.xlarge"\n',
    });
    const r = await detectPr(tree(2), tree(5));
    expect(flagged(r)).toEqual(['infra/variables.tf']);
  });

  it('its machine type from a variable with a CPU default and no variable file beside it (`-var-file` from another folder)', async () => {
    const tree = (n: number): Tree => ({
      'infra/main.tf': `${group('gpu', '2', '"p5.48xlarge"')}\n${group('other', 'var.other_workers', 'var.other_type')}`,
      'infra/variables.tf': `variable "other_type" {\n  default = "m6i.large"\n}\n\nvariable "other_workers" {\n  default = ${n}\n}\n`,
    });
    const r = await detectPr(tree(2), tree(5));
    expect(flagged(r)).toEqual(['infra/variables.tf']);
  });

  it('but not a size from a variable whose default is a number (no type widening it)', async () => {
    const tree = (n: number): Tree => ({
      'infra/main.tf': `${group('gpu', '2', '"p5.48xlarge"')}\n${group('other', 'var.other_workers', 'var.other_zones')}`,
      'infra/variables.tf': `variable "other_zones" {\n  default = 3\n}\n\nvariable "other_workers" {\n  default = ${n}\n}\n`,
    });
    const r = await detectPr(tree(2), tree(5));
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toEqual([]);
  });

  it('an autoscaling group whose launch template names a GPU type', async () => {
    const tree = (n: number): Tree => ({
      'infra/main.tf': `resource "aws_launch_template" "gpu" {
  instance_type = "g5.12xlarge"
}

resource "aws_autoscaling_group" "workers" {
  desired_capacity = local.workers
  launch_template {
    id = aws_launch_template.gpu.id
  }
}

${group('cpu', '1', '"m6i.large"')}`,
      'infra/locals.tf': `locals {\n  workers = ${n}\n}\n`,
    });
    const r = await detectPr(tree(2), tree(5));
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toEqual(['infra/locals.tf']);
  });

  it('a CPU group an override file (`*_override.tf`) gives a GPU type, as Terraform merges it', async () => {
    for (const override of ['main_override.tf', 'override.tf']) {
      const tree = (n: number): Tree => ({
        'infra/main.tf': group('other', 'var.other_workers', '"m6i.large"'),
        [`infra/${override}`]: 'resource "aws_instance" "other" {\n  instance_type = "p5.48xlarge"\n}\n',
        'infra/variables.tf': `variable "other_workers" {\n  default = ${n}\n}\n`,
      });
      const r = await detectPr(tree(2), tree(5));
      expect(r.changes).toEqual([]);
      expect(flagged(r)).toEqual(['infra/variables.tf']);
    }
  });

  it('a local module call whose module builds a GPU group from the count it is given', async () => {
    const tree = (n: number): Tree => ({
      'main.tf': `module "pool" {\n  source  = "./modules/pool"\n  workers = local.workers\n}\n\n${group('cpu', '1', '"m6i.large"')}\nlocals {\n  workers = ${n}\n}\n`,
      'modules/pool/main.tf': `variable "workers" {}\n\n${group('gpu', 'var.workers', '"p4d.24xlarge"')}`,
    });
    const r = await detectPr(tree(2), tree(5));
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toEqual(['main.tf']);
  });
});
