import { describe, expect, it } from 'vitest';
import { programConfigKind } from '../../src/detect/program-config.js';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

const POOL = (machine: string) => `resource "google_container_node_pool" "pool" {
  name       = "pool"
  location   = "us-central1-a"
  node_count = var.nodes
  node_config {
    machine_type = "${machine}"
  }
}
variable "nodes" {
  type    = number
  default = 1
}
`;
const PROVIDERS = `required_providers {\n  google = {\n    source  = "hashicorp/google"\n    version = "~> 6.0"\n  }\n}\n`;
const COMPONENT = (source: string) =>
  `${PROVIDERS}component "pool" {\n  source = "${source}"\n  inputs = {\n    nodes = var.nodes\n  }\n}\nvariable "nodes" { type = number }\n`;
const DEPLOYMENT = (n: number) => `deployment "prod" {\n  inputs = {\n    nodes = ${n}\n  }\n}\n`;
const TG_STACK = (n: number) => `unit "pool" {\n  source = "../../units/pool"\n  path   = "pool"\n  values = {\n    nodes = ${n}\n  }\n}\n`;
const TG_UNIT = `terraform {\n  source = "../../modules/pool"\n}\ninputs = {\n  nodes = values.nodes\n}\n`;
const PULUMI_TS = (machine: string) =>
  `import * as gcp from "@pulumi/gcp";\nimport * as pulumi from "@pulumi/pulumi";\nconst cfg = new pulumi.Config();\nconst nodes = cfg.getNumber("nodes") ?? 1;\nnew gcp.container.NodePool("p", { nodeCount: nodes, nodeConfig: { machineType: "${machine}" } });\n`;
const CDK_APP = (type: string) =>
  `import * as ec2 from 'aws-cdk-lib/aws-ec2';\nconst n = app.node.tryGetContext('maxNodes');\ncluster.addNodegroupCapacity('pool', { instanceTypes: [new ec2.InstanceType('${type}')], maxSize: n });\n`;
const CDK_JSON = (n: number) =>
  `{\n  "app": "npx ts-node bin/app.ts",\n  "context": {\n    "maxNodes": ${n},\n    "logLevel": "info"\n  }\n}\n`;

type Result = Awaited<ReturnType<typeof detectPr>>;
const state = (r: Result, file: string) => r.coverage.find((c) => c.file === file);
const reasons = (r: Result, file: string) => (state(r, file)?.notFollowed ?? []).map((n) => n.reason);

async function judged(base: Tree, file: string, after: string): Promise<Result> {
  return detectPr(base, { ...base, [file]: after });
}

/**
 * A file whose values a program takes in, where no reader evaluates the program: a Pulumi stack's
 * config, CDK context, a Terraform Stack's deployments, a Terragrunt stack's values. None names a
 * GPU; the program may. Such a change is not followed when the program names GPUs (or cannot be
 * read in full), and is no capacity when it does not.
 */
describe('configuration of a program no reader evaluates', () => {
  it('knows the files', () => {
    for (const p of ['Pulumi.yaml', 'infra/Pulumi.prod.yaml', 'a/Pulumi.dev.yml', 'cdk.json', 'app/cdk.context.json'])
      expect(programConfigKind(p), p).not.toBeNull();
    for (const p of ['stack/main.tfdeploy.hcl', 'stack/components.tfcomponent.hcl', 'x.tfstack.hcl', 'live/terragrunt.stack.hcl'])
      expect(programConfigKind(p), p).not.toBeNull();
    for (const p of ['PulumiPolicy.yaml', 'values.yaml', 'terragrunt.hcl', 'package.json', 'main.tf', 'cdk.out/manifest.json'])
      expect(programConfigKind(p), p).toBeNull();
  });

  describe('a Terraform Stack', () => {
    const stack = (machine: string, source = './pool'): Tree => ({
      'stack/components.tfcomponent.hcl': COMPONENT(source),
      'stack/deployments.tfdeploy.hcl': DEPLOYMENT(2),
      'stack/pool/main.tf': POOL(machine),
    });
    it('a deployment input feeding a component whose module names GPUs is not followed', async () => {
      const r = await judged(stack('g2-standard-4'), 'stack/deployments.tfdeploy.hcl', DEPLOYMENT(6));
      expect(reasons(r, 'stack/deployments.tfdeploy.hcl')).toEqual(['program-config']);
    });
    it('a component from elsewhere cannot be read: not followed', async () => {
      const r = await judged(stack('n2-standard-4', 'app.terraform.io/acme/gke/google'), 'stack/deployments.tfdeploy.hcl', DEPLOYMENT(6));
      expect(reasons(r, 'stack/deployments.tfdeploy.hcl')).toEqual(['program-config']);
    });
    it('a stack whose modules name no GPU is no capacity (provider sources are not modules)', async () => {
      const r = await judged(stack('n2-standard-4'), 'stack/deployments.tfdeploy.hcl', DEPLOYMENT(6));
      expect(state(r, 'stack/deployments.tfdeploy.hcl')?.state).toBe('not-capacity');
    });
  });

  describe('a Terragrunt stack', () => {
    const live = (machine: string): Tree => ({
      'live/prod/terragrunt.stack.hcl': TG_STACK(2),
      'units/pool/terragrunt.hcl': TG_UNIT,
      'modules/pool/main.tf': POOL(machine),
    });
    it("a unit's values reaching a module that names GPUs are not followed", async () => {
      const r = await judged(live('a2-highgpu-1g'), 'live/prod/terragrunt.stack.hcl', TG_STACK(6));
      expect(reasons(r, 'live/prod/terragrunt.stack.hcl')).toEqual(['program-config']);
    });
    it('through units to modules that name no GPU: no capacity', async () => {
      const r = await judged(live('e2-standard-4'), 'live/prod/terragrunt.stack.hcl', TG_STACK(6));
      expect(state(r, 'live/prod/terragrunt.stack.hcl')?.state).toBe('not-capacity');
    });
  });

  describe('a Pulumi stack', () => {
    const project = (machine: string): Tree => ({
      'infra/Pulumi.yaml': 'name: infra\nruntime: nodejs\n',
      'infra/Pulumi.prod.yaml': 'config:\n  aws:region: us-east-1\n  infra:nodes: 2\n',
      'infra/src/index.ts': PULUMI_TS(machine),
    });
    it('a value the program reads, where the program names GPUs, is not followed', async () => {
      const r = await judged(project('g2-standard-4'), 'infra/Pulumi.prod.yaml', 'config:\n  aws:region: us-east-1\n  infra:nodes: 6\n');
      expect(state(r, 'infra/Pulumi.prod.yaml')?.notFollowed?.[0]).toMatchObject({ reason: 'program-config', inputs: ['infra:nodes'] });
    });
    it('a new stack file setting a value the program reads is not followed', async () => {
      const r = await judged(project('g2-standard-4'), 'infra/Pulumi.dev.yaml', 'config:\n  infra:nodes: 9\n');
      expect(reasons(r, 'infra/Pulumi.dev.yaml')).toEqual(['program-config']);
    });
    it("a provider's setting the program never reads is no capacity", async () => {
      const r = await judged(project('g2-standard-4'), 'infra/Pulumi.prod.yaml', 'config:\n  aws:region: us-west-2\n  infra:nodes: 2\n');
      expect(state(r, 'infra/Pulumi.prod.yaml')?.state).toBe('not-capacity');
    });
    it('a value the program reads that sizes nothing (a name, a region) is no capacity', async () => {
      const base = {
        ...project('g2-standard-4'),
        'infra/src/index.ts': `${PULUMI_TS('g2-standard-4')}const name = cfg.get("clusterName");\n`,
      };
      const r = await judged(base, 'infra/Pulumi.dev.yaml', 'config:\n  infra:clusterName: dev\n');
      expect(state(r, 'infra/Pulumi.dev.yaml')?.state).toBe('not-capacity');
    });
    it('a program that names no GPU: no capacity', async () => {
      const r = await judged(project('n2-standard-4'), 'infra/Pulumi.prod.yaml', 'config:\n  aws:region: us-east-1\n  infra:nodes: 6\n');
      expect(state(r, 'infra/Pulumi.prod.yaml')?.state).toBe('not-capacity');
    });
  });

  describe('AWS CDK context', () => {
    const app = (type: string): Tree => ({ 'cdk/cdk.json': CDK_JSON(2), 'cdk/bin/app.ts': CDK_APP(type) });
    it('a context value the app reads, where the app names GPUs, is not followed', async () => {
      const r = await judged(app('g5.xlarge'), 'cdk/cdk.json', CDK_JSON(8));
      expect(state(r, 'cdk/cdk.json')?.notFollowed?.[0]).toMatchObject({ reason: 'program-config', inputs: ['maxNodes'] });
    });
    it('a context value the app never reads is no capacity', async () => {
      const r = await judged(app('g5.xlarge'), 'cdk/cdk.json', CDK_JSON(2).replace('"info"', '"debug"'));
      expect(state(r, 'cdk/cdk.json')?.state).toBe('not-capacity');
    });
  });
});
