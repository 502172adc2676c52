import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/**
 * Deploy tools written as programs that make node pools by running a cloud's CLI (determined's
 * `det deploy gke`, xpk): the command is built in the program's strings, a word at a time or
 * whole, and what says GPU is a setting of the program (`gpus_per_node`, `accelerator_type`), not
 * a GPU name. A change to such a program may grow a GPU pool: it is not followed, never "no
 * change". A program that runs no pool command (a training script's `num_gpus`) is no capacity.
 */

type Lang = 'python-argv' | 'python-fstring' | 'go' | 'typescript';
type Cli = 'gcloud' | 'az' | 'aws' | 'eksctl';

/** The command's words, with the program's settings put in by name. */
const COMMANDS: Record<Cli, string[]> = {
  gcloud: [
    'gcloud',
    'container',
    'node-pools',
    'create',
    '{pool}',
    '--accelerator',
    'type={gpu_type},count={gpus_per_node}',
    '--max-nodes={max_nodes}',
  ],
  az: ['az', 'aks', 'nodepool', 'add', '--name', '{pool}', '--node-vm-size', '{gpu_vm_size}', '--max-count', '{max_nodes}'],
  aws: [
    'aws',
    'eks',
    'create-nodegroup',
    '--nodegroup-name',
    '{pool}',
    '--instance-types',
    '{gpu_instance_type}',
    '--scaling-config',
    'maxSize={max_nodes}',
  ],
  eksctl: ['eksctl', 'create', 'nodegroup', '--name', '{pool}', '--node-type', '{gpu_instance_type}', '--nodes-max', '{max_nodes}'],
};

/** The setting each command reads, as the program names it: a key naming GPUs, no GPU name. */
const SETTING: Record<Cli, string> = { gcloud: 'gpus_per_node', az: 'gpu_vm_size', aws: 'gpu_instance_type', eksctl: 'gpu_instance_type' };

function program(lang: Lang, cli: Cli | null, maxNodes: number): string {
  const words = cli === null ? ['torchrun', '--nproc-per-node', '{gpus_per_node}', 'train.py'] : COMMANDS[cli];
  const setting = cli === null ? 'gpus_per_node' : SETTING[cli];
  if (lang === 'python-argv' || lang === 'python-fstring') {
    const cmd =
      lang === 'python-argv'
        ? `[${words.map((w) => `"${w}".format(**settings)`).join(', ')}]`
        : `f"${words.join(' ').replace(/\{(\w+)\}/g, '{settings["$1"]}')}".split()`;
    return `import subprocess\n\n${setting} = settings.get("${setting}")\nmax_nodes = ${maxNodes}\n\n\ndef create_pool(settings):\n    settings["max_nodes"] = max_nodes\n    subprocess.check_call(${cmd})\n`;
  }
  if (lang === 'go') {
    return `package deploy\n\nimport "os/exec"\n\nconst maxNodes = ${maxNodes}\n\nfunc createPool(${setting} string) error {\n\treturn exec.Command(${words.map((w) => `"${w}"`).join(', ')}).Run()\n}\n`;
  }
  return `import { execFileSync } from 'node:child_process';\n\nconst maxNodes = ${maxNodes};\n\nexport function createPool(${setting}: string): void {\n  execFileSync('${words[0]}', [${words
    .slice(1)
    .map((w) => `'${w}'`)
    .join(', ')}]);\n}\n`;
}

const EXT: Record<Lang, string> = { 'python-argv': 'py', 'python-fstring': 'py', go: 'go', typescript: 'ts' };

describe('programs that make node pools with a cloud CLI', () => {
  it('are not followed when they change; a program running no pool command stays no capacity', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Lang>('python-argv', 'python-fstring', 'go', 'typescript'),
        fc.constantFrom<Cli | null>('gcloud', 'az', 'aws', 'eksctl', null),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 9, max: 64 }),
        async (lang, cli, before, after) => {
          const path = `deploy/pools.${EXT[lang]}`;
          const tree = (n: number): Tree => ({ [path]: program(lang, cli, n) });
          const result = await detectPr(tree(before), tree(after));
          const file = result.coverage.find((f) => f.file === path);
          expect(result.changes).toEqual([]);
          if (cli === null) expect(file?.state).not.toBe('not-followed');
          else expect(file?.state, program(lang, cli, after)).toBe('not-followed');
        },
      ),
      { numRuns: 40 },
    );
  });
});
