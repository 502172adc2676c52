import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { cliScriptParser } from './cli-scripts.js';

const notes = (files: Tree) =>
  (cliScriptParser.parseSet?.(Object.entries(files).map(([path, text]) => ({ path, text }))).notFollowed ?? []).map((n) => [
    n.file,
    n.line,
    n.subject,
    n.inputs ?? [],
  ]);

/** Each shape of one command, as the clouds' CLIs write it: [cli line, its machines have GPUs]. */
const SHAPES: readonly [string, boolean][] = [
  ['gcloud container node-pools create gpu --cluster c --accelerator type=nvidia-l4,count=1 --num-nodes 2', true],
  ['gcloud beta container node-pools create gpu --cluster=c --machine-type=a2-highgpu-1g --num-nodes=2', true],
  ['gcloud container node-pools create web --cluster=c --machine-type=e2-standard-4 --num-nodes=2', false],
  ['gcloud container clusters create c --num-nodes 3', false],
  ['gcloud container clusters update c --enable-autoprovisioning --max-accelerator type=nvidia-l4,count=8', true],
  ['az aks nodepool add -g rg --cluster-name c -n gpu -s Standard_NC24ads_A100_v4 -c 2', true],
  ['az aks nodepool add -g rg --cluster-name c --name cpu --node-vm-size Standard_D8s_v5 --node-count 2', false],
  ['az aks create -g rg -n c --node-count 3', false],
  ['eksctl create nodegroup --cluster c --name gpu --node-type p4d.24xlarge --nodes 2 --nodes-max 4', true],
  ['eksctl create cluster --name c --node-type m5.large --nodes 3', false],
  [
    'aws eks create-nodegroup --cluster-name c --nodegroup-name gpu --instance-types g5.12xlarge --scaling-config minSize=0,maxSize=4,desiredSize=1',
    true,
  ],
  // Machines from a launch template: its instance type is not in the command (aws-samples/aws-do-eks).
  [
    'aws eks create-nodegroup --cluster-name c --nodegroup-name p5 --launch-template id=lt-0abc,version=1 --scaling-config minSize=0,maxSize=4,desiredSize=1',
    true,
  ],
  ['aws eks create-nodegroup --cluster-name c --nodegroup-name web --scaling-config minSize=0,maxSize=4,desiredSize=1', false],
];

describe('cloud CLI commands that make or size node pools', () => {
  for (const [line, gpu] of SHAPES) {
    it(`${gpu ? 'names' : 'leaves out'}: ${line}`, async () => {
      const base = { 'scripts/up.sh': `#!/bin/bash\n${line}\n` };
      const head = {
        'scripts/up.sh': `#!/bin/bash\n${line.replace(/(nodes?|count|-c|maxSize)([ =])(\d)/, (_m, f: string, s: string, n: string) => `${f}${s}${Number(n) + 1}`)}\n`,
      };
      expect(head['scripts/up.sh']).not.toBe(base['scripts/up.sh']);
      const r = await detectPr(base, head);
      expect(r.changes).toEqual([]);
      expect(r.coverage.map((c) => c.state)).toEqual([gpu ? 'not-followed' : r.coverage[0]?.state === 'read' ? 'read' : 'not-capacity']);
    });
  }

  // A pool's flags kept in a shell array (`args=(…)` over several lines) and put in with `"${args[@]}"`.
  const ARRAY_SCRIPT = (flags: string, machine: string) =>
    `#!/bin/bash\nnodepool_args=(--spot --enable-autoscaling\n  ${flags} --cluster ml\n  --node-locations us-central1-a --region us-central1)\n\ngcloud container node-pools create pool \\\n  ${machine} \\\n  "\${nodepool_args[@]}"\n`;
  for (const [machine, gpu] of [
    ['--accelerator type=nvidia-l4,count=1 --machine-type g2-standard-8', true],
    ['--machine-type e2-standard-8', false],
  ] as const) {
    it(`reads a pool's flags from a shell array (${gpu ? 'GPU' : 'CPU'} machines)`, async () => {
      const base = { 'install/up.sh': ARRAY_SCRIPT('--num-nodes=0 --min-nodes=0 --max-nodes=3', machine) };
      const head = { 'install/up.sh': ARRAY_SCRIPT('--num-nodes=0 --min-nodes=0 --max-nodes=10', machine) };
      const r = await detectPr(base, head);
      expect(r.coverage.map((c) => c.state)).toEqual([gpu ? 'not-followed' : 'read']);
      const text = notes(base)[0];
      if (gpu) expect(text?.[2]).toBe('gcloud container node-pools create pool');
    });
  }

  it('puts in the variables the script and the files it sources set, and names the ones set elsewhere', () => {
    const script = [
      '#!/bin/bash',
      'source ./env.rc',
      'az aks nodepool add \\',
      '  --cluster-name $CLUSTER --name gpunp \\',
      '  --node-vm-size $GPU_SKU --node-count 1',
      'az aks nodepool add --cluster-name $CLUSTER --name turn --node-vm-size $CPU_SKU --node-count 1',
      'az aks nodepool add --cluster-name $CLUSTER --name other --node-vm-size $OTHER_SKU --node-count 1',
      '',
    ].join('\n');
    const env = 'export GPU_SKU="Standard_NC12"\nexport CPU_SKU="Standard_F8s_v2"\n';
    expect(notes({ 'infra/up.sh': script, 'infra/env.rc': env })).toEqual([
      ['infra/up.sh', 3, 'az aks nodepool add gpunp', ['CLUSTER']],
      ['infra/env.rc', null, 'az aks nodepool add gpunp', ['CLUSTER']],
      ['infra/up.sh', 7, 'az aks nodepool add other', ['CLUSTER', 'OTHER_SKU']],
    ]);
  });

  it('ties a resize to the create of its pool, and names one of a pool made elsewhere', () => {
    const text = [
      'gcloud container node-pools create web --cluster c --machine-type e2-standard-4 --num-nodes 1',
      'gcloud container clusters resize c --node-pool web --num-nodes 4',
      'gcloud container clusters resize c --node-pool gpu-pool --num-nodes 4',
      'az aks nodepool scale --cluster-name c --name gpu --node-count 3',
      'kubectl patch clusterqueue team-a --type=merge -p \'{"spec":{"resourceGroups":[]}}\'',
      '',
    ].join('\n');
    expect(notes({ 'ops/scale.sh': text }).map((n) => n[2])).toEqual([
      'gcloud container clusters resize gpu-pool',
      'az aks nodepool scale gpu',
      'kubectl patch clusterqueue team-a',
    ]);
  });

  it("reads Make's and a workflow's variables", () => {
    const make = 'GPU_TYPE := p4d.24xlarge\nup:\n\teksctl create nodegroup --cluster c --name g --node-type $(GPU_TYPE) --nodes 2\n';
    expect(notes({ Makefile: make })).toEqual([['Makefile', 3, 'eksctl create nodegroup g', []]]);
    const workflow = [
      'env:',
      '  MACHINE: e2-standard-8',
      'jobs:',
      '  up:',
      '    steps:',
      '      - run: >',
      '          gcloud container node-pools create web --cluster c',
      '          --machine-type ${{ env.MACHINE }} --num-nodes 3',
      '',
    ].join('\n');
    expect(notes({ '.github/workflows/up.yml': workflow })).toEqual([]);
    expect(notes({ '.github/workflows/up.yml': workflow.replace('e2-standard-8', 'g2-standard-8') })).toEqual([
      ['.github/workflows/up.yml', 7, 'gcloud container node-pools create web', []],
    ]);
  });

  it('a command that stands as it was is read: its GPU names change nothing', async () => {
    const base = {
      'up.sh': 'GPU=nvidia-l4\ngcloud container node-pools create g --cluster c --accelerator type=$GPU,count=1 --num-nodes 1\necho v1\n',
    };
    const r = await detectPr(base, { 'up.sh': base['up.sh'].replace('echo v1', 'echo v2') });
    expect(r.coverage.map((c) => c.state)).toEqual(['read']);
    const grown = await detectPr(base, { 'up.sh': base['up.sh'].replace('--num-nodes 1', '--num-nodes 3') });
    expect(grown.coverage.map((c) => [c.state, c.notFollowed?.map((n) => n.reason)])).toEqual([['not-followed', ['cli-command']]]);
  });

  it('reads a script and the file it sources the same with CRLF line ends: a CPU pool resized stays no change', async () => {
    const script = (count: number) =>
      [
        '#!/bin/bash',
        'source ./env.rc',
        'az aks nodepool add --cluster-name $CLUSTER --name gpunp --node-vm-size $GPU_SKU --node-count 1',
        `az aks nodepool add --cluster-name $CLUSTER --name turn --node-vm-size $CPU_SKU --node-count ${count}`,
        '',
      ].join('\n');
    const env = 'export CLUSTER="c"\nexport GPU_SKU="Standard_NC12"\nexport CPU_SKU="Standard_F8s_v2"\n';
    for (const eol of ['\n', '\r\n']) {
      const side = (count: number) => ({ 'infra/up.sh': script(count).replace(/\n/g, eol), 'infra/env.rc': env.replace(/\n/g, eol) });
      const r = await detectPr(side(1), side(2));
      expect(
        r.coverage.filter((c) => c.state === 'not-followed'),
        JSON.stringify(eol),
      ).toEqual([]);
      // The GPU pool grown is still named, whatever the line ends.
      const grown = await detectPr(side(1), {
        ...side(1),
        'infra/up.sh': side(1)['infra/up.sh'].replace('--node-count 1', '--node-count 3'),
      });
      expect(grown.coverage.map((c) => c.state)).toContain('not-followed');
    }
  });
});
