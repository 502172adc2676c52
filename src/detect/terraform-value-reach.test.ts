import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * A value that names no GPU (a count, a size) changed in one file, feeding a GPU declaration no
 * reader counts in another file or module (an EC2 instance, a Batch compute environment, an Azure
 * ML cluster, a scale set, an instance group's template): never "no change". Generated over the
 * declarations and over where the value is written (a variable's default, a local, tfvars, a
 * module call's argument or count).
 */

/** GPU declarations no reader counts, each sized by `SIZE` (the value under test). */
const UNREAD: Record<string, string> = {
  'aws_instance count': `resource "aws_instance" "trainer" {
  count         = SIZE
  ami           = "ami-123"
  instance_type = "p5.48xlarge"
}
`,
  'aws_batch_compute_environment max_vcpus': `resource "aws_batch_compute_environment" "gpu" {
  compute_environment_name = "gpu"
  type                     = "MANAGED"
  compute_resources {
    type          = "EC2"
    instance_type = ["g5.12xlarge"]
    max_vcpus     = SIZE
    min_vcpus     = 0
    subnets       = ["subnet-1"]
  }
}
`,
  'azurerm_machine_learning_compute_cluster max_node_count': `resource "azurerm_machine_learning_compute_cluster" "gpu" {
  name                          = "gpu"
  location                      = "eastus"
  vm_priority                   = "Dedicated"
  vm_size                       = "Standard_NC24ads_A100_v4"
  machine_learning_workspace_id = "ws"
  scale_settings {
    min_node_count                       = 0
    max_node_count                       = SIZE
    scale_down_nodes_after_idle_duration = "PT30S"
  }
}
`,
  'azurerm_linux_virtual_machine_scale_set instances': `resource "azurerm_linux_virtual_machine_scale_set" "gpu" {
  name                = "gpu"
  resource_group_name = "rg"
  location            = "eastus"
  sku                 = "Standard_ND96asr_v4"
  instances           = SIZE
  admin_username      = "azureuser"
}
`,
  'google_compute_instance_group_manager target_size': `resource "google_compute_instance_template" "gpu" {
  machine_type = "a3-highgpu-8g"
  disk {
    source_image = "cos-cloud/cos-stable"
  }
  network_interface {
    network = "default"
  }
}

resource "google_compute_instance_group_manager" "gpu" {
  name               = "gpu"
  zone               = "us-east4-a"
  base_instance_name = "gpu"
  target_size        = SIZE
  version {
    instance_template = google_compute_instance_template.gpu.id
  }
}
`,
};

type Tree = Record<string, string>;

/** Where the changing value is written: the tree at a value, with the declaration `decl` using it. */
const CARRIERS: Record<string, (decl: string, n: number) => Tree> = {
  "the variable's default in variables.tf": (decl, n) => ({
    'infra/main.tf': decl.replace('SIZE', 'var.workers'),
    'infra/variables.tf': `variable "workers" {\n  type    = number\n  default = ${n}\n}\n`,
  }),
  'a local in locals.tf': (decl, n) => ({
    'infra/main.tf': decl.replace('SIZE', 'local.workers'),
    'infra/locals.tf': `locals {\n  workers = ${n}\n}\n`,
  }),
  'terraform.tfvars': (decl, n) => ({
    'infra/main.tf': decl.replace('SIZE', 'var.workers'),
    'infra/variables.tf': 'variable "workers" {\n  type = number\n}\n',
    'infra/terraform.tfvars': `workers = ${n}\n`,
  }),
  'a .auto.tfvars.json': (decl, n) => ({
    'infra/main.tf': decl.replace('SIZE', 'var.workers'),
    'infra/variables.tf': 'variable "workers" {\n  type = number\n}\n',
    'infra/prod.auto.tfvars.json': `{\n  "workers": ${n}\n}\n`,
  }),
  "a local module call's argument": (decl, n) => ({
    'main.tf': `module "gpu" {\n  source  = "./modules/gpu"\n  workers = ${n}\n}\n`,
    'modules/gpu/main.tf': `variable "workers" {}\n\n${decl.replace('SIZE', 'var.workers')}`,
  }),
  "a local module call's count": (decl, n) => ({
    'main.tf': `module "gpu" {\n  source = "./modules/gpu"\n  count  = ${n}\n}\n`,
    'modules/gpu/main.tf': decl.replace('SIZE', '2'),
  }),
  "a Terragrunt unit's inputs": (decl, n) => ({
    'live/prod/gpu/terragrunt.hcl': `terraform {\n  source = "../../../modules//gpu"\n}\n\ninputs = {\n  name    = "gpu"\n  workers = ${n}\n}\n`, // fixture path: data, never read
    'modules/gpu/main.tf': `variable "name" {}\nvariable "workers" {}\n\n${decl.replace('SIZE', 'var.workers')}`,
  }),
  'a module of this repository called by its URL, given a list of groups': (decl, n) => ({
    'examples/gpu/main.tf': `variable "groups" {}\n\nmodule "gpu" {\n  source = "github.com/acme/infra//modules/gpu"\n  groups = var.groups\n}\n`,
    'examples/gpu/terraform.tfvars': `groups = [\n  {\n    size = ${n}\n  },\n]\n`,
    'modules/gpu/main.tf': `variable "groups" {}\n\n${decl.replace('SIZE', 'var.groups[0].size')}`,
  }),
};

const REPOSITORIES = ['github.com/acme/infra'];
const flagged = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('a changed value that sizes a GPU declaration no reader counts', () => {
  for (const [declName, decl] of Object.entries(UNREAD)) {
    for (const [where, tree] of Object.entries(CARRIERS)) {
      it(`${declName}, the value in ${where}: 2 → 8 is not followed, on the file that changed`, async () => {
        const base = tree(decl, 2);
        const head = tree(decl, 8);
        const changed = Object.keys(head).filter((p) => base[p] !== head[p]);
        const r = await detectPr(base, head, true, REPOSITORIES);
        expect(r.changes).toEqual([]);
        expect(flagged(r)).toEqual(changed);
        const note = r.coverage.flatMap((c) => (c.state === 'not-followed' ? c.notFollowed : []))[0];
        expect(note?.reason).toBe('gpu-reference');
      });
    }
  }
});

describe('a changed value that sizes nothing unread naming GPUs (negative controls)', () => {
  const CPU = UNREAD['aws_instance count']?.replace('p5.48xlarge', 'm6i.large') ?? '';
  for (const [where, tree] of Object.entries(CARRIERS)) {
    it(`a CPU instance, the value in ${where}: no change`, async () => {
      const r = await detectPr(tree(CPU, 2), tree(CPU, 8), true, REPOSITORIES);
      expect(r.changes).toEqual([]);
      expect(flagged(r)).toEqual([]);
    });
  }

  it('a prefix feeding a network named for GPUs beside a read GKE pool: a key names no machines', async () => {
    const tree = (n: number) => ({
      'infra/variables.tf': `variable "prefix" {\n  default = "c${n}"\n}\n`,
      'infra/network.tf': 'resource "google_compute_network" "gpus" {\n  name = "${var.prefix}-gpu"\n}\n',
      'infra/main.tf': `resource "google_container_node_pool" "gpu" {
  name           = "\${var.prefix}-gpu"
  cluster        = "c"
  location       = "us-east4"
  node_locations = ["us-east4-a"]
  node_count     = 2
  node_config {
    machine_type = "a3-highgpu-8g"
    guest_accelerator {
      type  = "nvidia-h100-80gb"
      count = 8
    }
  }
}
`,
    });
    const r = await detectPr(tree(1), tree(2));
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toEqual([]);
  });

  it('a count of a read GKE pool in variables.tf: counted, not flagged', async () => {
    const tree = (n: number) => ({
      'infra/main.tf': `resource "google_container_node_pool" "gpu" {
  name           = "gpu"
  cluster        = "c"
  location       = "us-east4"
  node_locations = ["us-east4-a"]
  node_count     = var.workers
  node_config {
    machine_type = "a3-highgpu-8g"
    guest_accelerator {
      type  = "nvidia-h100-80gb"
      count = 8
    }
  }
}
`,
      'infra/variables.tf': `variable "workers" {\n  default = ${n}\n}\n`,
    });
    const r = await detectPr(tree(2), tree(8));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 64]]);
    expect(flagged(r)).toEqual([]);
  });
});
