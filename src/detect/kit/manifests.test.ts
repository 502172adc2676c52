import { describe, expect, it } from 'vitest';
import { readManifests } from './manifests.js';

const wanted = (t: string) => /nvidia\.com\/gpu|timeSlicing/.test(t);

/** A ConfigMap holding `body` under `key`, as a literal block. */
function configMap(key: string, body: string): string {
  const indented = body
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tools\ndata:\n  ${key}: |\n${indented}\n`;
}

// Text that names a GPU and holds colons, and that YAML cannot read.
const SCRIPT = `set -euo pipefail
echo "GPUs: $(kubectl get nodes -o jsonpath='{.items[*].status.allocatable.nvidia\\.com/gpu}')"
for n in $(seq 1 3); do echo "try: $n"; done`;
const PYTHON = `import subprocess
out = subprocess.run(["kubectl", "get", "nodes", "-o", "json"]).stdout
gpus = {n: a.get("nvidia.com/gpu") for n, a in nodes}`;
const CSV = `# metric, type, help,,
DCGM_FI_DEV_GPU_UTIL, gauge, utilisation of nvidia.com/gpu: in %`;
const BROKEN_CONFIG = `version: v1
sharing:
  timeSlicing:
    resources:
      - name: nvidia.com/gpu
        replicas: [4`;

describe('YAML held in ConfigMap data', () => {
  it.each([
    ['a shell script under a .sh key', 'run.sh', SCRIPT],
    ['a shell script with a shebang under a bare key', 'entrypoint', `#!/bin/bash\n${SCRIPT}`],
    ['a shell script with no shebang under a bare key', 'entrypoint', SCRIPT],
    ['a Python file', 'probe.py', PYTHON],
    ['a Python file under a bare key', 'probe', PYTHON],
    ['a CSV of metrics', 'counters.csv', CSV],
    ['a CSV of metrics under a bare key', 'counters', CSV],
  ])('%s is text, not capacity: not read, no diagnostic', (_, key, body) => {
    const scan = readManifests('cm.yaml', configMap(key, body), wanted);
    expect(scan.diagnostics).toEqual([]);
    expect(scan.manifests.filter((m) => m.holder)).toEqual([]);
  });

  it.each([
    ['under a .yaml key', 'config.yaml'],
    ['under a bare key, starting as YAML does', 'any'],
  ])('a device-plugin config that does not parse, %s, is still reported', (_, key) => {
    const scan = readManifests('cm.yaml', configMap(key, BROKEN_CONFIG), wanted);
    expect(scan.diagnostics.map((d) => [d.severity, d.message.split(':')[0]])).toEqual([['warning', `ConfigMap tools, data.${key}`]]);
  });

  it('a valid config under a bare key is read, with its holder', () => {
    const scan = readManifests('cm.yaml', configMap('any', BROKEN_CONFIG.replace('[4', '4')), wanted);
    expect(scan.diagnostics).toEqual([]);
    expect(scan.manifests.flatMap((m) => (m.holder ? [m.holder] : []))).toEqual([{ configMap: 'tools', key: 'any' }]);
  });
});
