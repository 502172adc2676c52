import { describe, expect, it } from 'vitest';
import { parseTerraformSet } from './terraform-parser.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** A cluster whose GPU nodes GKE creates itself (for ComputeClasses), capped per accelerator type. */
const cluster = (l4Max: number, enabled = 'true') => `resource "google_container_cluster" "ml" {
  name     = "ml"
  location = "us-central1"

  cluster_autoscaling {
    enabled = ${enabled}
    resource_limits {
      resource_type = "cpu"
      maximum       = 512
    }
    resource_limits {
      resource_type = "nvidia-l4"
      maximum       = ${l4Max}
    }
    resource_limits {
      resource_type = "nvidia-h100-80gb"
      minimum       = 0
      maximum       = 16
    }
  }
}
`;

describe('GKE node auto-provisioning GPU limits', () => {
  it('are one declaration per accelerator type, at its maximum', () => {
    const text = cluster(8);
    const r = parseTerraformSet([{ path: 'gke.tf', text }]);
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.line])).toEqual([
      ['gke-autoprovisioning', 'nvidia-l4', 'L4', 8, lineIn(text, 'maximum       = 8')],
      ['gke-autoprovisioning', 'nvidia-h100-80gb', 'H100', 16, lineIn(text, 'maximum       = 16')],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a raised maximum is a change of that type; with auto-provisioning off they bound nothing', async () => {
    expect(changeRows(await detectPr({ 'gke.tf': cluster(8) }, { 'gke.tf': cluster(32) })).map((r) => r.slice(0, 5))).toEqual([
      ['gke-autoprovisioning', 'nvidia-l4', 8, 32, 'L4'],
    ]);
    expect(parseTerraformSet([{ path: 'gke.tf', text: cluster(8, 'false') }]).decls).toEqual([]);
  });

  it('are read from the GKE module too', () => {
    const text = `module "gke" {
  source            = "terraform-google-modules/kubernetes-engine/google"
  name              = "ml"
  region            = "us-central1"
  cluster_autoscaling = {
    enabled       = true
    gpu_resources = [{ resource_type = "nvidia-tesla-a100", minimum = 0, maximum = 8 }]
  }
}
`;
    const r = parseTerraformSet([{ path: 'main.tf', text }]);
    expect(r.decls.map((d) => [d.name, d.gpuModel, d.gpus])).toEqual([['nvidia-tesla-a100', 'A100', 8]]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('Config Connector ContainerCluster auto-provisioning limits', () => {
  const containerCluster = (max: number) => `apiVersion: container.cnrm.cloud.google.com/v1beta1
kind: ContainerCluster
metadata:
  name: ml
spec:
  location: us-central1
  clusterAutoscaling:
    enabled: true
    resourceLimits:
      - resourceType: cpu
        maximum: 512
      - resourceType: nvidia-l4
        maximum: ${max}
`;

  it('are read as the Terraform ones are', async () => {
    const result = await detectPr({ 'cluster.yaml': containerCluster(8) }, { 'cluster.yaml': containerCluster(16) });
    expect(changeRows(result)).toEqual([['gke-autoprovisioning', 'nvidia-l4', 8, 16, 'L4', 'cluster.yaml', 13]]);
    expect(result.diagnostics).toEqual([]);
  });
});
