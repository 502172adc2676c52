/**
 * Modules of the public registries' main namespaces that create no compute at all: networks, IAM,
 * storage, DNS, certificates, queues, databases. A change to what they are handed sizes no GPU
 * pool, so their calls are not flagged as unread (unread-modules.ts). Taken from the module lists
 * of registry.terraform.io/namespaces/terraform-aws-modules, /terraform-google-modules and /Azure;
 * anything not listed is a module that may declare GPU pools.
 */
const NON_COMPUTE: Readonly<Record<string, readonly string[]>> = {
  'terraform-aws-modules': [
    'vpc',
    'iam',
    's3-bucket',
    'security-group',
    'kms',
    'acm',
    'route53',
    'dynamodb-table',
    'sqs',
    'sns',
    'cloudwatch',
    'rds',
    'rds-aurora',
    'rds-proxy',
    'elasticache',
    'alb',
    'elb',
    'ecr',
    'secrets-manager',
    'ssm-parameter',
    'cloudfront',
    'vpn-gateway',
    'transit-gateway',
    'customer-gateway',
    'lambda',
    'step-functions',
    'eventbridge',
    'apigateway-v2',
    'key-pair',
    'efs',
    'fsx',
    'opensearch',
    'msk-kafka-cluster',
    'network-firewall',
    'global-accelerator',
    'appsync',
    'cognito-user-pool',
  ],
  'terraform-google-modules': [
    'network',
    'project-factory',
    'iam',
    'cloud-dns',
    'address',
    'cloud-nat',
    'cloud-router',
    'kms',
    'cloud-storage',
    'sql-db',
    'memorystore',
    'service-accounts',
    'bigquery',
    'pubsub',
    'vpc-service-controls',
    'org-policy',
    'log-export',
    'lb',
    'lb-http',
    'lb-internal',
    'secret-manager',
    'artifact-registry',
    'cloud-armor',
    'folders',
    'kubernetes-engine//modules/workload-identity',
  ],
  azure: [
    'network',
    'vnet',
    'subnets',
    'network-security-group',
    'loadbalancer',
    'naming',
    'avm-res-network-virtualnetwork',
    'avm-res-keyvault-vault',
    'avm-res-storage-storageaccount',
  ],
};

/**
 * Cloud Foundation Fabric (GoogleCloudPlatform/cloud-foundation-fabric), one repository of modules
 * called by subpath (`…cloud-foundation-fabric.git//modules/net-vpc`): those that create no compute.
 */
const FABRIC_NON_COMPUTE =
  /^(net-[\w-]+|iam-[\w-]+|project|projects-data-source|folder|organization|billing-[\w-]+|dns|dns-response-policy|kms|gcs|bigquery-dataset|pubsub|artifact-registry|secret-manager|gke-hub|logging-bucket|service-directory|certificate-manager|vpc-sc|workstation-cluster)$/;

/**
 * True when a module source names one of those modules: `terraform-aws-modules/vpc/aws`, or
 * `git::https://github.com/terraform-aws-modules/terraform-aws-vpc.git?ref=…` (a submodule of one too).
 */
export function declaresNoCompute(source: string): boolean {
  const s = source
    .toLowerCase()
    .replace(/^git::/, '')
    .replace(/[?#].*$/, '');
  const registry = /^(?:[\w.-]+\/)?([\w-]+)\/([\w-]+)\/[\w-]+(\/\/.*)?$/.exec(s);
  if (registry) return listed(registry[1] ?? '', registry[2] ?? '', registry[3] ?? '');
  const fabric = /cloud-foundation-fabric(?:\.git)?\/\/modules\/([\w-]+)/.exec(s);
  if (fabric) return FABRIC_NON_COMPUTE.test(fabric[1] ?? '');
  const git = /(?:github\.com[/:])([\w-]+)\/terraform-[a-z]+-([\w-]+?)(?:\.git)?(\/\/.*)?$/.exec(s);
  return git !== null && listed(git[1] ?? '', git[2] ?? '', git[3] ?? '');
}

function listed(namespace: string, name: string, sub: string): boolean {
  const names = NON_COMPUTE[namespace];
  if (!names) return false;
  return names.includes(name) || names.includes(`${name}${sub}`);
}
