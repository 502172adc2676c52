// The layouts of a file several folders read through symbolic links, shared by the CLI's and the
// App's tests of links to changed files (test/cli/linked-files.test.ts, test/github/linked-files.test.ts).

export const pool = (at: string) =>
  [
    'resource "google_container_node_pool" "l4" {',
    '  name       = "l4"',
    '  cluster    = "lab"',
    '  location   = "us-central1-a"',
    '  node_count = var.gpu_nodes',
    `  # read through ${at}`,
    '  node_config {',
    '    machine_type = "g2-standard-8"',
    '    guest_accelerator {',
    '      type  = "nvidia-l4"',
    '      count = 1',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');

export const variables = (gpuNodes: number, cpuNodes: number) =>
  `variable "gpu_nodes" {\n  default = ${gpuNodes}\n}\n\nvariable "cpu_nodes" {\n  default = ${cpuNodes}\n}\n`;

/** A module folder whose `variables.tf` is a link, through one or more links, to the shared file. */
export interface Layout {
  name: string;
  shared: string;
  /** Links, each [path, the path it leads to]; the first is the module's `variables.tf`. */
  links: [string, string][];
}

export const LAYOUTS: Layout[] = [
  { name: 'a sibling folder', shared: 'common/variables.tf', links: [['gke/variables.tf', 'common/variables.tf']] },
  { name: 'the parent folder', shared: 'envs/gcp/variables.tf', links: [['envs/gcp/gke/variables.tf', 'envs/gcp/variables.tf']] },
  { name: 'three folders up', shared: 'common/vars.tf', links: [['envs/prod/gcp/gke/common_variables.tf', 'common/vars.tf']] },
  {
    name: 'a chain of two links',
    shared: 'common/vars.tf',
    links: [
      ['envs/prod/gke/variables.tf', 'envs/prod/variables.tf'],
      ['envs/prod/variables.tf', 'common/vars.tf'],
    ],
  },
];
