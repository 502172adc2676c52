/**
 * Pairs the full variant run (`npm run detect:corpus -- --variants`) found failing on the cases
 * added with the machine-scaler, program and script readers, and why: each is open work, kept
 * visible here until its class is read (the bounded test fails once one passes).
 */
const OPEN: readonly (readonly [string, readonly string[], string])[] = [
  [
    'demo-ocp-autoscale-gpu: ClusterAutoscaler cores max 176 → 240 (negative control)',
    ['yaml-block-scalar-names', 'yaml-duplicate-keys', 'yaml-go-prefixes'],
    'false alarm, open: with duplicate keys, block-scalar names or Go-prefixed numbers the OpenShift readers leave a GPU name of the ClusterAutoscaler to the floor; not traced yet',
  ],
  [
    'demo-ocp-autoscale-gpu: KEDA ScaledObject cooldownPeriod 300 → 600 (negative control)',
    ['yaml-block-scalar-names', 'yaml-duplicate-keys', 'yaml-go-prefixes'],
    "false alarm, open: with duplicate keys, block-scalar names or Go-prefixed numbers the machine-scaler reader leaves the GPU name in the trigger's query to the floor; not traced yet",
  ],
  [
    'demo-ai-gitops-catalog: autoscale overlay gpus patch nvidia.com/gpu max 8 → 16',
    [
      'yaml-block-scalar-names',
      'yaml-document-markers',
      'yaml-go-prefixes',
      'yaml-list',
      'yaml-list-last',
      'yaml-many-documents',
      'yaml-nested-list',
      'yaml-null-documents',
      'yaml-typed-list',
    ],
    'silent miss or wrong count, open: a JSON patch of an overlay over a ClusterAutoscaler base whose documents are rewritten (List wrappers, document markers, null documents, block-scalar names, Go-prefixed numbers) is not applied, or applied twice; not traced yet',
  ],
  [
    'demo-ai-gitops-catalog: autoscale base amd.com/gpu max 1 → 4',
    [
      'rename',
      'rename-in-pr',
      'yaml-document-markers',
      'yaml-list',
      'yaml-list-last',
      'yaml-nested-list',
      'yaml-null-documents',
      'yaml-typed-list',
    ],
    'wrong count, open: the base ClusterAutoscaler is counted as written (1 → 4) where the overlays that patch it should be applied (4 → 16) once its file is List-wrapped, given document markers or renamed; not traced yet',
  ],
  [
    'demo-ai-gitops-catalog: autoscale overlay workshop-50 maxNodesTotal 33 → 40 (negative control)',
    ['yaml-duplicate-keys'],
    "false alarm, open: with duplicate keys a GPU name of the overlay's base is left to the floor; not traced yet",
  ],
  [
    'machine-controller AWS: instanceType t2.micro → p3.8xlarge',
    [
      'argocd-applicationset-list',
      'argocd-helm-parameters',
      'argocd-helm-parameters-force-string',
      'argocd-subchart-values',
      'argocd-values-object',
      'argocd-values-string',
      'flux-helmrelease-values',
      'flux-values-from',
      'helm-two-value-files',
      'kustomize-helm-charts',
    ],
    'silent miss, open: a Kubermatic MachineDeployment carried in chart values (Helm value files, Argo CD parameters, `forceString` parameters and values, ApplicationSet list elements, Flux HelmRelease values and valuesFrom, kustomize helmCharts: the class of chart-values carriers) is not counted and its values are taken as accounted; not traced yet',
  ],
  [
    'machine-controller AWS: replicas 1 → 3 on t2.micro (negative control)',
    ['flux-values-from'],
    'false alarm, open: a Flux valuesFrom ConfigMap is not followed (as for every case under this rewrite)',
  ],
  [
    'machine-controller Azure: vmSize Standard_F2s_v2 → Standard_NC24ads_A100_v4',
    [
      'argocd-applicationset-list',
      'argocd-helm-parameters',
      'argocd-helm-parameters-force-string',
      'argocd-subchart-values',
      'argocd-values-object',
      'argocd-values-string',
      'flux-helmrelease-values',
      'flux-values-from',
      'helm-two-value-files',
      'kustomize-helm-charts',
    ],
    'silent miss, open: a Kubermatic MachineDeployment carried in chart values (Helm value files, Argo CD parameters, `forceString` parameters and values, ApplicationSet list elements, Flux HelmRelease values and valuesFrom, kustomize helmCharts: the class of chart-values carriers) is not counted and its values are taken as accounted; not traced yet',
  ],
  [
    'machine-controller GCE: machineType n1-standard-2 → a2-highgpu-2g',
    [
      'argocd-applicationset-list',
      'argocd-helm-parameters',
      'argocd-helm-parameters-force-string',
      'argocd-subchart-values',
      'argocd-values-object',
      'argocd-values-string',
      'flux-helmrelease-values',
      'flux-values-from',
      'helm-two-value-files',
      'kustomize-helm-charts',
    ],
    'silent miss, open: a Kubermatic MachineDeployment carried in chart values (Helm value files, Argo CD parameters, `forceString` parameters and values, ApplicationSet list elements, Flux HelmRelease values and valuesFrom, kustomize helmCharts: the class of chart-values carriers) is not counted and its values are taken as accounted; not traced yet',
  ],
  [
    'configuration-gcp-gke XR: nodes.instanceType e2-standard-2 → a2-highgpu-1g',
    ['yaml-binary-values'],
    "silent miss, open: a Crossplane composite's machine type written as a YAML binary value is not decoded for the floor; not traced yet",
  ],
  [
    'pulumi examples gpu-dra: the CoreDNS add-on version bumped (negative control)',
    ['crlf', 'crlf-bom-trailing', 'symlink-inside', 'utf8-bom'],
    'false alarm, as the case itself: Pulumi programs are not parsed, so any change in a program that names GPUs is not followed',
  ],
  [
    'cdk-eks-blueprints-patterns gpu: the device plugin version bumped (negative control)',
    ['crlf', 'symlink-inside'],
    'false alarm, as the case itself: CDK programs are not parsed, so any change in a program that names GPUs is not followed',
  ],
  [
    'aks-unreal-pixel-streaming create-nodepools.sh: turnp --node-count 1 → 2 (negative control)',
    ['crlf', 'symlink-inside'],
    "false alarm, open: with CRLF line ends, or a linked copy, a script's unchanged GPU command is not matched to its base and is taken as changed",
  ],
  [
    'aks-unreal-pixel-streaming env.rc: ACR_NAME renamed (negative control)',
    ['crlf'],
    "false alarm, open: with CRLF line ends a sourced file's unchanged GPU variable is taken as changed",
  ],
  [
    'gke-ai-observability 2.sh: comment reworded (negative control)',
    ['symlink-inside'],
    "false alarm, open: through a linked copy a script's unchanged GPU command is taken as changed",
  ],
  [
    'StableAzure Main.bicep: nodeCountGPU default 1 → 4, the parameter file sets it',
    ['bicep-params-file', 'bicep-params-file-vars', 'rename'],
    'silent miss, open: the JSON parameter file is paired with its template by name; renamed, or with the values moved to a .bicepparam, the changed default is read as overridden and nothing is said',
  ],
  [
    'StableAzure Main.parameters.json: clusterName changed (negative control)',
    [
      'bicep-interpolated-strings',
      'bicep-params-file',
      'bicep-params-file-vars',
      'bicep-ternary',
      'bicep-vars',
      'crlf',
      'rename',
      'rename-in-pr',
      'symlink-inside',
    ],
    "false alarm, as the case itself: the GPU pool's count is a string ARM refuses, so the pool's count is unknown and any value the file changes is not followed",
  ],
  [
    'aws-devops-jenkins eks-node-group.yml: NodeInstanceType Default t2.micro → g4dn.12xlarge, the parameter file sets it (negative control)',
    ['rename', 'rename-in-pr'],
    'wrong count, open: a CloudFormation parameter file is paired with its template by name; renamed, the pairing is lost and the changed Default is counted',
  ],
  ...[
    'Volcano TF job on GPUs: workers 3 → 6 (negative control, a workload requesting GPUs)',
    'KubeRay autoscaled cluster: the CPU worker group maxReplicas 10 → 20 (negative control, beside a GPU group)',
    'configuration-gcp-gke XR: nodes.count 1 → 3 on e2-standard-2 (negative control)',
  ].map((caseId): readonly [string, readonly string[], string] => [
    caseId,
    ['yaml-cross-document-alias'],
    "silent, open: the changed file's object aliases an anchor of another document, which go-yaml refuses (kubectl decodes each document alone); the kubectl reader notes the refusal, but the workload readers (Volcano Job, RayCluster) and the Crossplane XR reader take the refused object as no capacity without naming it. Nothing is applied, so no GPUs are added, yet the file is not read as the applier reads it",
  ]),
];

/** Entries of EXPECTED_TO_FAIL (metamorphic.ts), one per rewrite and case. */
export const EXPECTED_OPEN: readonly { rewrite: string; cases: readonly string[]; reason: string }[] = OPEN.flatMap(
  ([caseId, rewrites, reason]) => rewrites.map((rewrite) => ({ rewrite, cases: [caseId], reason })),
);
