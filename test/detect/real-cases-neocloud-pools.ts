import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on node pools of clouds no parser counts: DigitalOcean Kubernetes and
 * dedicated inference, Scaleway Kapsule, OVHcloud Managed Kubernetes. A pool of these is seen only
 * through the floor's GPU names (kit/gpu-types/families.ts), so every change that names or sizes
 * GPUs there is not followed, and CPU-only changes stay no change.
 */
export const NEOCLOUD_POOL_CASES: readonly RealCase[] = [
  // digitalocean/terraform-provider-digitalocean examples/kubernetes: a root calling ./doks-cluster,
  // whose cluster's default pool takes worker_size and worker_count (3 × s-2vcpu-4gb).
  {
    id: 'DigitalOcean DOKS example: worker_size s-2vcpu-4gb → gpu-h100x1-80gb',
    target: 'terraform-neoclouds/do-kubernetes',
    edits: [['do-kubernetes/variables.tf', 'default = "s-2vcpu-4gb"', 'default = "gpu-h100x1-80gb"']],
    expect: 'not-followed',
    why: '3 workers × 1 H100 of gpu-h100x1-80gb; DOKS pools are read by no parser',
  },
  {
    id: 'DigitalOcean DOKS example: worker_size s-2vcpu-4gb → gpu-l40sx1-48gb',
    target: 'terraform-neoclouds/do-kubernetes',
    edits: [['do-kubernetes/variables.tf', 'default = "s-2vcpu-4gb"', 'default = "gpu-l40sx1-48gb"']],
    expect: 'not-followed',
    why: '3 workers × 1 L40S; the slug of a GPU ending in a letter must be a GPU name too',
  },
  {
    id: 'DigitalOcean DOKS example: a node pool of gpu-6000adax1-48gb added to the cluster module',
    target: 'terraform-neoclouds/do-kubernetes',
    edits: [
      [
        'doks-cluster/main.tf',
        /\n$/,
        '\n\nresource "digitalocean_kubernetes_node_pool" "render" {\n  cluster_id = digitalocean_kubernetes_cluster.primary.id\n  name       = "render"\n  size       = "gpu-6000adax1-48gb"\n  node_count = 2\n}\n',
      ],
    ],
    expect: 'not-followed',
    why: '2 × 1 RTX 6000 Ada, a slug whose GPU leads with digits',
  },
  {
    id: 'DigitalOcean DOKS example: worker_count 3 → 5 on s-2vcpu-4gb (negative control)',
    target: 'terraform-neoclouds/do-kubernetes',
    edits: [['do-kubernetes/variables.tf', 'default = 3', 'default = 5']],
    expect: [],
    why: 's-2vcpu-4gb has no GPU',
  },
  // digitalocean/terraform-provider-digitalocean examples/dedicatedinference: a dedicated inference
  // endpoint of accelerator_scale (1) × accelerator_slug (gpu-h100x1-80gb) GPUs, from variables.tf.
  {
    id: 'DigitalOcean dedicated inference example: accelerator_scale 1 → 4',
    target: 'terraform-neoclouds/do-dedicated-inference',
    edits: [['do-dedicated-inference/variables.tf', /(units to allocate\."\n {2}type {8}= number\n {2}default {5}= )1/, '$14']],
    expect: 'not-followed',
    why: '4 × 1 H100 instead of 1; dedicated inference is read by no parser',
  },
  {
    id: 'DigitalOcean dedicated inference example: gpu-h100x1-80gb → gpu-h100x8-640gb',
    target: 'terraform-neoclouds/do-dedicated-inference',
    edits: [['do-dedicated-inference/variables.tf', '"gpu-h100x1-80gb"', '"gpu-h100x8-640gb"']],
    expect: 'not-followed',
    why: '1 × 8 H100 instead of 1 × 1',
  },
  // scaleway/terraform-provider-scaleway examples/resources/scaleway_k8s_cluster/resource-autoscaler.tf:
  // a Kapsule cluster with one autoscaled pool of DEV1-M (1 to 5).
  {
    id: 'Scaleway Kapsule example: the pool DEV1-M → L4-1-24G',
    target: 'terraform-neoclouds/scaleway-kapsule',
    edits: [['resource-autoscaler.tf', 'node_type   = "DEV1-M"', 'node_type   = "L4-1-24G"']],
    expect: 'not-followed',
    why: 'max_size 5 × 1 L4; Kapsule pools are read by no parser',
  },
  {
    id: 'Scaleway Kapsule example: a pool of H100-SXM-2-80G added',
    target: 'terraform-neoclouds/scaleway-kapsule',
    edits: [
      [
        'resource-autoscaler.tf',
        /\n$/,
        '\n\nresource "scaleway_k8s_pool" "train" {\n  cluster_id = scaleway_k8s_cluster.cluster.id\n  name       = "train"\n  node_type  = "H100-SXM-2-80G"\n  size       = 2\n}\n',
      ],
    ],
    expect: 'not-followed',
    why: '2 × 2 H100',
  },
  {
    id: 'Scaleway Kapsule example: max_size 5 → 8 on DEV1-M (negative control)',
    target: 'terraform-neoclouds/scaleway-kapsule',
    edits: [['resource-autoscaler.tf', 'max_size    = 5', 'max_size    = 8']],
    expect: [],
    why: 'DEV1-M has no GPU',
  },
  // ovh/terraform-provider-ovh examples/resources/cloud_project_kube_nodepool/example_2.tf: a node
  // pool of 3 × b3-8 with a template of labels and taints.
  {
    id: 'OVHcloud node pool example: flavor b3-8 → l40s-90',
    target: 'terraform-neoclouds/ovh-nodepool',
    edits: [['example_2.tf', 'flavor_name   = "b3-8"', 'flavor_name   = "l40s-90"']],
    expect: 'not-followed',
    why: '3 × 1 L40S; OVHcloud pools are read by no parser',
  },
  {
    id: 'OVHcloud node pool example: desired_nodes 3 → 5 on b3-8 (negative control)',
    target: 'terraform-neoclouds/ovh-nodepool',
    edits: [['example_2.tf', 'desired_nodes = 3', 'desired_nodes = 5']],
    expect: [],
    why: 'b3-8 has no GPU',
  },
  // openfun/kubic ovh/: the platform's OVHcloud cluster, one pool whose flavor and sizes are variables
  // (d2-8, 2 to 10 nodes).
  {
    id: 'kubic OVHcloud: the pool flavor d2-8 → t1-45',
    target: 'terraform-neoclouds/kubic-ovh',
    edits: [['kubic-ovh/variables.tf', 'default     = "d2-8"', 'default     = "t1-45"']],
    expect: 'not-followed',
    why: 'max_nodes 10 × 1 V100 of t1-45',
  },
  {
    id: 'kubic OVHcloud: the pool flavor set to h100-380 in the resource',
    target: 'terraform-neoclouds/kubic-ovh',
    edits: [['kubic-ovh/kubernetes.tf', 'flavor_name    = var.k8s_nodepool_flavor', 'flavor_name    = "h100-380"']],
    expect: 'not-followed',
    why: 'max_nodes 10 × 1 H100 of h100-380',
  },
  {
    id: 'kubic OVHcloud: max_nodes 10 → 20 on d2-8 (negative control)',
    target: 'terraform-neoclouds/kubic-ovh',
    edits: [['kubic-ovh/variables.tf', 'default     = 10', 'default     = 20']],
    expect: [],
    why: 'd2-8 has no GPU',
  },
];
