import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { intIn, pick, seeded } from '../lib/measure.js';

/** The shared corpus sits beside the clone, as in the tests. */
const CORPUS_ROOT = fileURLToPath(new URL('../../test/corpus', import.meta.url));

export type FileCategory = 'deployment' | 'service' | 'terraform-vpc' | 'terraform-bucket' | 'helm-values' | 'markdown' | 'gpu-corpus';

export interface SyntheticFile {
  path: string;
  category: FileCategory;
  /** null: the PR adds the file. */
  base: string | null;
  head: string;
}

function corpusFiles(): { rel: string; text: string }[] {
  const out: { rel: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // The licence texts of the corpus's sources are not corpus files.
      if (entry.name === 'LICENSES') continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'SOURCES.md')
        out.push({ rel: path.relative(CORPUS_ROOT, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(CORPUS_ROOT);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

const deployment = (name: string, replicas: number, image: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: ${name}
          image: ${image}
          ports:
            - containerPort: 8080
          resources:
            requests:
              cpu: ${replicas * 100}m
              memory: ${replicas * 128}Mi
            limits:
              cpu: "1"
              memory: 1Gi
          readinessProbe:
            httpGet:
              path: /healthz
              port: 8080
`;

const service = (name: string, port: number): string => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  type: ClusterIP
  selector:
    app: ${name}
  ports:
    - name: http
      port: ${port}
      targetPort: 8080
`;

const vpc = (name: string, cidr: number): string => `resource "aws_vpc" "${name}" {
  cidr_block           = "10.${cidr}.0.0/16"
  enable_dns_hostnames = true
  tags = {
    Name = "${name}"
  }
}

resource "aws_subnet" "${name}_private" {
  count             = 3
  vpc_id            = aws_vpc.${name}.id
  cidr_block        = cidrsubnet(aws_vpc.${name}.cidr_block, 4, count.index)
  availability_zone = data.aws_availability_zones.available.names[count.index]
}
`;

const bucket = (name: string, days: number): string => `resource "google_storage_bucket" "${name}" {
  name          = "${name}-artifacts"
  location      = "EU"
  force_destroy = false

  lifecycle_rule {
    condition {
      age = ${days}
    }
    action {
      type = "Delete"
    }
  }
}
`;

const helmValues = (name: string, replicas: number): string => `# Values for ${name}
replicaCount: ${replicas}
image:
  repository: ghcr.io/example/${name}
  tag: "1.${replicas}.0"
service:
  type: ClusterIP
  port: 80
ingress:
  enabled: true
  hosts:
    - host: ${name}.example.com
      paths: ["/"]
resources:
  requests:
    cpu: 250m
    memory: 256Mi
autoscaling:
  enabled: false
`;

const markdown = (name: string, n: number): string => `# ${name}

Runbook for the ${name} service. Rotate credentials every ${n} days.

## Steps

1. Drain the node.
2. Apply the change with \`kubectl apply -f\`.
3. Watch the rollout.
`;

/**
 * A pull request of `total` changed infra files: mostly ordinary ones (Deployments, Services,
 * Terraform for VPCs and buckets, Helm values, Markdown), plus every file of the shared corpus
 * (real GPU declarations). Half the GPU files are added, half edited; ordinary files are edited.
 */
export function syntheticPr(total = 500, seed = 42): SyntheticFile[] {
  const rand = seeded(seed);
  const files: SyntheticFile[] = [];
  corpusFiles().forEach((c, i) => {
    const p = `gpu/${c.rel}`;
    files.push({ path: p, category: 'gpu-corpus', base: i % 2 === 0 ? null : c.text, head: i % 2 === 0 ? c.text : `${c.text}\n` });
  });
  const makers: { category: Exclude<FileCategory, 'gpu-corpus'>; make: (i: number) => { path: string; base: string; head: string } }[] = [
    {
      category: 'deployment',
      make: (i) => {
        const r = intIn(rand, 1, 9);
        return {
          path: `k8s/apps/app-${i}/deployment.yaml`,
          base: deployment(`app-${i}`, r, `nginx:1.2${r}`),
          head: deployment(`app-${i}`, r + 1, `nginx:1.2${r}`),
        };
      },
    },
    {
      category: 'service',
      make: (i) => {
        const p = intIn(rand, 80, 9000);
        return { path: `k8s/apps/app-${i}/service.yaml`, base: service(`app-${i}`, p), head: service(`app-${i}`, p + 1) };
      },
    },
    {
      category: 'terraform-vpc',
      make: (i) => {
        const c = intIn(rand, 0, 200);
        return { path: `terraform/net-${i}/vpc.tf`, base: vpc(`net_${i}`, c), head: vpc(`net_${i}`, c + 1) };
      },
    },
    {
      category: 'terraform-bucket',
      make: (i) => {
        const d = intIn(rand, 7, 90);
        return { path: `terraform/storage-${i}/bucket.tf`, base: bucket(`store-${i}`, d), head: bucket(`store-${i}`, d + 1) };
      },
    },
    {
      category: 'helm-values',
      make: (i) => {
        const r = intIn(rand, 1, 6);
        return { path: `charts/svc-${i}/values.yaml`, base: helmValues(`svc-${i}`, r), head: helmValues(`svc-${i}`, r + 1) };
      },
    },
    {
      category: 'markdown',
      make: (i) => {
        const n = intIn(rand, 30, 90);
        return { path: `docs/runbook-${i}.md`, base: markdown(`svc-${i}`, n), head: markdown(`svc-${i}`, n + 1) };
      },
    },
  ];
  for (let i = 0; files.length < total; i++) {
    const maker = pick(rand, makers);
    files.push({ category: maker.category, ...maker.make(i) });
  }
  return files;
}
