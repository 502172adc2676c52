import { namesGpu } from '../kit/gpu-signal.js';
import type { LogicalCommand } from './shell-text.js';
import { resolve } from './variables.js';
import type { Vars } from './variables.js';

/** Whether what a command creates or sizes has GPUs: `unknown` when nothing here tells its machines. */
export type PoolClass = 'gpu' | 'cpu' | 'unknown';

/** A cloud CLI command that creates or sizes a node pool (or a quota), as written and with its variables put in. */
export interface PoolCommand {
  from: number;
  to: number;
  /** `az aks nodepool add gpunp`: the command and the pool it acts on. */
  subject: string;
  /** The pool's key among the commands of the same CLI (`az:gpunp`), to tie a resize to the create. */
  key: string | null;
  /** The command's text as written, and with its variables put in: the same text at both sides is the same command. */
  written: string;
  resolved: string;
  unresolved: string[];
  /** Its class from its own flags, or `lookup` when it only names a pool made elsewhere (a resize). */
  own: PoolClass | 'lookup';
}

type Flags = ReadonlyMap<string, string | true>;

interface Spec {
  cli: string;
  match: RegExp;
  /** The pool's name, from the verb and flags (and the first word after the command). */
  pool: (verb: string, flags: Flags, first: string | undefined) => string | undefined;
  /** Flags that name the machine type; flags that add GPUs whatever the type. */
  types: readonly string[];
  gpus: readonly string[];
  /** Verbs that make a pool: with no type given, the CLI's default machine, which has no GPU. */
  creates: RegExp;
  /** Verbs that count only when they carry a sizing or machine flag (an `update` that sets labels is no capacity). */
  sizingOnly?: RegExp;
  /**
   * Flags that take the machines from another object (an EC2 launch template): with one and no
   * type flag, the machines are that object's, not the CLI's default.
   */
  machinesFrom?: readonly string[];
}

const str = (v: string | true | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const flag = (flags: Flags, ...names: string[]) => names.map((n) => str(flags.get(n))).find((v) => v !== undefined);

// The commands of the clouds' CLIs that make or size node pools; their flags from the CLIs' references.
const SPECS: readonly Spec[] = [
  {
    cli: 'gcloud',
    match: /\bgcloud\s+(?:(?:alpha|beta)\s+)?container\s+node-pools\s+(create|update|resize)\b/,
    pool: (_v, _f, first) => first,
    types: ['--machine-type'],
    gpus: ['--accelerator'],
    creates: /^create$/,
    sizingOnly: /^update$/,
  },
  {
    cli: 'gcloud',
    match: /\bgcloud\s+(?:(?:alpha|beta)\s+)?container\s+clusters\s+(create|resize|update)\b/,
    pool: (verb, flags) => (verb === 'create' ? 'default-pool' : (flag(flags, '--node-pool') ?? 'default-pool')),
    types: ['--machine-type'],
    gpus: ['--accelerator', '--max-accelerator', '--min-accelerator'],
    creates: /^create$/,
    sizingOnly: /^update$/,
  },
  {
    cli: 'az',
    match: /\baz\s+aks\s+nodepool\s+(add|scale|update)\b/,
    pool: (_v, flags) => flag(flags, '--name', '-n', '--nodepool-name'),
    types: ['--node-vm-size', '-s'],
    gpus: ['--gpu-instance-profile'],
    creates: /^add$/,
    sizingOnly: /^update$/,
  },
  {
    cli: 'az',
    match: /\baz\s+aks\s+(create|scale|update)\b/,
    pool: (_v, flags) => flag(flags, '--nodepool-name') ?? 'nodepool1',
    types: ['--node-vm-size', '-s'],
    gpus: [],
    creates: /^create$/,
    sizingOnly: /^update$/,
  },
  {
    cli: 'eksctl',
    match: /\beksctl\s+((?:create|scale)\s+(?:cluster|nodegroup|ng))\b/,
    pool: (verb, flags) => (verb.endsWith('cluster') ? flag(flags, '--nodegroup-name') : flag(flags, '--name', '-n')),
    types: ['--node-type', '-t', '--instance-types'],
    gpus: [],
    creates: /^create/,
  },
  {
    cli: 'aws-eks',
    match: /\baws\s+eks\s+(create-nodegroup|update-nodegroup-config)\b/,
    pool: (_v, flags) => flag(flags, '--nodegroup-name'),
    types: ['--instance-types'],
    gpus: [],
    creates: /^create-nodegroup$/,
    machinesFrom: ['--launch-template'],
  },
  {
    cli: 'aws-autoscaling',
    match: /\baws\s+autoscaling\s+(create-auto-scaling-group|update-auto-scaling-group|set-desired-capacity)\b/,
    pool: (_v, flags) => flag(flags, '--auto-scaling-group-name'),
    types: [],
    gpus: [],
    // Its machines are those of a launch template or configuration: never a default.
    creates: /^$/,
  },
  {
    cli: 'kubectl',
    match:
      /\bkubectl\s+(?:-n\s+\S+\s+|--namespace[= ]\S+\s+)?(?:scale|patch)\s+(?:-n\s+\S+\s+)?((?:clusterqueues?|cq|nodepools?|provisioners?|machinedeployments?|md|machinesets?|machinepools?)(?:\.[\w.]+)?)[/\s]/,
    pool: (_v, _f, first) => first,
    types: [],
    gpus: [],
    creates: /^$/,
  },
];

/** Flags that size a pool or pick its machines: an `update` without any changes no capacity. */
const SIZING =
  /^--(?:num-nodes|min-nodes|max-nodes|total-min-nodes|total-max-nodes|enable-autoscaling|node-count|min-count|max-count|enable-cluster-autoscaler|update-cluster-autoscaler|accelerator|max-accelerator|min-accelerator|machine-type|node-vm-size|enable-autoprovisioning|autoprovisioning-config-file|node-locations|scaling-config|desired-capacity|max-size|min-size)$/;
/** eksctl flags that hand it a ClusterConfig file, which its own reader counts. */
const CONFIG_FILE = ['-f', '--config-file'];

/** The pool commands among a file's commands. */
export function poolCommands(commands: readonly LogicalCommand[], vars: Vars, make: boolean): PoolCommand[] {
  const out: PoolCommand[] = [];
  for (const c of commands) {
    for (const spec of SPECS) {
      const m = spec.match.exec(c.text);
      if (m === null) continue;
      const verb = (m[1] ?? '').replace(/\s+/g, ' ');
      const r = resolve(c.text.slice(m.index), vars, make);
      const rest = resolve(c.text.slice(m.index + m[0].length), vars, make);
      const { flags, first } = parseFlags(tokens(rest.text));
      if (CONFIG_FILE.some((f) => flags.has(f)) && spec.cli === 'eksctl') break;
      if (spec.sizingOnly?.test(verb) && ![...flags.keys()].some((k) => SIZING.test(k))) break;
      const pool = spec.pool(verb, flags, first);
      const name = m[0]
        .trim()
        .replace(/\s+/g, ' ')
        .replace(/^.*?\b(gcloud|az|eksctl|aws|kubectl)\b/, '$1');
      out.push({
        from: c.from,
        to: c.to,
        subject: `${name}${pool ? ` ${pool}` : ''}`,
        key: pool === undefined ? null : `${spec.cli}:${spec.cli === 'kubectl' ? `${m[1] ?? ''}/` : ''}${pool}`,
        written: c.text,
        resolved: r.text.replace(/\s+/g, ' ').trim(),
        unresolved: r.unresolved,
        own: classify(spec, verb, flags, rest.text),
      });
      break;
    }
  }
  return out;
}

function classify(spec: Spec, verb: string, flags: Flags, resolved: string): PoolClass | 'lookup' {
  if (spec.cli === 'kubectl') return namesGpu(resolved) ? 'gpu' : 'unknown';
  if (spec.gpus.some((g) => flags.has(g))) return 'gpu';
  const types = spec.types.flatMap((t) => {
    const v = flags.get(t);
    return v === undefined ? [] : [v];
  });
  if (types.some((t) => t !== true && namesGpu(t))) return 'gpu';
  // A machine type that is a variable set nowhere here, or a flag with no value: its machines are not known.
  if (types.some((t) => t === true || t.includes('⟨'))) return 'unknown';
  if (types.length > 0) return 'cpu';
  // A launch template's instance type is set where this command does not show it.
  if (spec.machinesFrom?.some((f) => flags.has(f))) return 'unknown';
  return spec.creates.test(verb) ? 'cpu' : 'lookup';
}

/** Words of a command line, quotes taken off (`--name "gpu pool"` is two words). */
function tokens(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** `--flag=value`, `--flag value`, `-n value`; a flag followed by another flag is a switch. */
function parseFlags(words: readonly string[]): { flags: Flags; first: string | undefined } {
  const flags = new Map<string, string | true>();
  let first: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (/^[;&|)]/.test(w)) break;
    if (!w.startsWith('-')) {
      if (i === 0) first = w;
      continue;
    }
    const eq = w.indexOf('=');
    if (eq > 0) {
      flags.set(w.slice(0, eq), w.slice(eq + 1));
      continue;
    }
    const next = words[i + 1];
    if (next !== undefined && !next.startsWith('-') && !/^[;&|]/.test(next)) {
      flags.set(w, next);
      i++;
    } else flags.set(w, true);
  }
  return { flags, first };
}
