import type { NotFollowed } from '../domain/index.js';
import { namesGpu, sizesCapacity } from './kit/gpu-signal.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { declaresInfrastructure, runsPoolCli, syntaxOf } from './kit/signal-scan/syntax.js';
import { dirOf } from './kit/paths.js';
import { programIn } from './program-config.js';
import type { ProgramIo } from './program-config.js';

/**
 * A changed source file of an infrastructure program (Pulumi, the AWS CDK, CDK for Terraform,
 * cdk8s, a Pulumi YAML program's `resources`) that names no GPU itself, while the program it belongs to does: in another source file
 * (a constants module, a node-group helper) or in its configuration (a Pulumi stack's
 * `instanceType: p4d.24xlarge`, a CDK context key). No reader evaluates the program, so a size
 * changed in one file can grow a GPU pool whose machines another file names. The floor sees a
 * file at a time; this reads the program as a whole: the project folder (the nearest folder up
 * with `Pulumi.yaml`, `cdk.json` or `cdktf.json`; the file's own folder when none is found).
 * A change whose lines set no size, count or machine (a version, a tag, a comment) is left alone.
 */

/** The files that mark a program's project folder, nearest first. */
const PROJECT_FILES = ['Pulumi.yaml', 'Pulumi.yml', 'cdk.json', 'cdktf.json'] as const;
const PROJECT_KIND: Readonly<Record<(typeof PROJECT_FILES)[number], string>> = {
  'Pulumi.yaml': 'the Pulumi program',
  'Pulumi.yml': 'the Pulumi program',
  'cdk.json': 'the AWS CDK app',
  'cdktf.json': 'the CDK for Terraform app',
};
/** A Pulumi YAML program: the project file (or its `main` folder's `Main.yaml`) with a `resources` section. */
const PULUMI_YAML_PROGRAM = /(?:^|\/)(?:Pulumi\.ya?ml|Main\.ya?ml)$/;
const RESOURCES = /^resources[ \t]*:/m;
/** Folders walked up from a changed file to its project folder. */
const MAX_UP = 8;
/** Changed identifiers named in a note. */
const NAMED_INPUTS = 8;

export async function programSourceNote(
  file: string,
  texts: { before: string | null; after: string | null },
  io: ProgramIo,
): Promise<NotFollowed | null> {
  const syntax = syntaxOf(file);
  const sides = [texts.before, texts.after].filter((t): t is string => t !== null);
  const yamlProgram = PULUMI_YAML_PROGRAM.test(file) && sides.some((t) => RESOURCES.test(t));
  // A program running a cloud's node pool command (a deploy tool's `gcloud container node-pools create`) is one too.
  const cli = syntax.code && sides.some((t) => runsPoolCli(file, t));
  if (!yamlProgram && !cli && !(syntax.code && sides.some(declaresInfrastructure))) return null;
  // A GPU name of the file itself is the floor's to name, line by line.
  if (sides.some((t) => accountSignals(file, t).signals.some((s) => s.by === null))) return null;
  const inputs = sizingChanges(texts.before ?? '', texts.after ?? '', syntax.hash, syntax.slash);
  if (inputs.length === 0) return null;
  const project = await projectOf(file, io);
  const program = await programIn(project.dir, file, io);
  // The machines of a pool a CLI command makes come from what the program is run with, as a
  // script's whose type is set elsewhere (cli-scripts): a size it changes is of pools no one can
  // tell are CPU only.
  const why =
    program.unknown ??
    (program.gpu !== null
      ? `it names \`${program.gpu.token}\` at ${program.gpu.at}`
      : cli
        ? 'it runs a cloud CLI node pool command (`gcloud container node-pools create`, `az aks nodepool add`, `aws eks create-nodegroup`, `eksctl create nodegroup`) whose machines cannot be told from the repository'
        : null);
  if (why === null) return null;
  return {
    file,
    line: null,
    reason: 'program-config',
    subject: `${project.kind} in ${project.dir || 'the repository root'}`,
    needs: why,
    inputs: inputs.slice(0, NAMED_INPUTS),
  };
}

/** The nearest folder up from the file that holds a project file, or the file's own folder. */
async function projectOf(file: string, io: ProgramIo): Promise<{ dir: string; kind: string }> {
  let dir = dirOf(file);
  for (let up = 0; up <= MAX_UP; up++) {
    const names = new Set((await io.list(dir)).map((p) => p.slice(p.lastIndexOf('/') + 1)));
    const marker = PROJECT_FILES.find((n) => names.has(n));
    if (marker !== undefined) return { dir, kind: PROJECT_KIND[marker] };
    if (dir === '') break;
    dir = dirOf(dir);
  }
  return { dir: dirOf(file), kind: 'the infrastructure program' };
}

/**
 * What a change may size: the tokens whose number of uses differs between the sides, on the
 * lines that changed (comments and blank lines aside). An identifier naming a size, a count or a
 * machine (`maxSize`, `desiredCapacity`, `instanceTypes`, `InstanceSize`), a whole number (bare or
 * quoted, named by the identifier before it), a string naming a GPU. A version string, a tag, a
 * comment changed sizes nothing, nor does a line's unchanged `skipDefaultNodeGroup` beside it. A
 * construct made or dropped (a class called) is another copy of what it declares.
 */
export function sizingChanges(before: string, after: string, hash: boolean, slash: boolean): string[] {
  const [a, b] = [lineSet(before, hash, slash), lineSet(after, hash, slash)];
  const changed = [...[...a].filter((l) => !b.has(l)), ...[...b].filter((l) => !a.has(l))];
  const [countA, countB] = [tokenCounts(a), tokenCounts(b)];
  const differs = (t: string) => (countA.get(t) ?? 0) !== (countB.get(t) ?? 0);
  const found = new Set<string>();
  for (const line of changed) {
    let named = 'a number';
    for (const m of line.matchAll(TOKEN)) {
      const token = m[0];
      const ident = /^[A-Za-z_]/.test(token);
      if (ident) named = token;
      if (!differs(token)) continue;
      if (ident && sizesCapacity(token)) found.add(token);
      // A construct made or dropped (`new EksClusterStack(`, `GpuStack(app, …)`, `NewNodePool(ctx, …)`):
      // another copy of whatever it declares, GPU node groups included.
      else if (ident && /^[A-Z]/.test(token) && /^\s*\(/.test(line.slice(m.index + token.length))) found.add(token);
      else if (/^["'`]?\s*\d+\s*["'`]?$/.test(token)) found.add(named);
      else if (/^["'`]/.test(token) && namesGpu(token)) found.add(token.slice(1, -1).slice(0, 60));
    }
  }
  return [...found].sort();
}

/** A string literal, an identifier or a number of a line of code. */
const TOKEN = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)*/g;

function tokenCounts(lines: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) for (const t of line.match(TOKEN) ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The file's lines, trimmed, without comment-only and blank lines. */
function lineSet(text: string, hash: boolean, slash: boolean): Set<string> {
  const out = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (
      line === '' ||
      (hash && line.startsWith('#')) ||
      (slash && (line.startsWith('//') || line.startsWith('*') || line.startsWith('/*')))
    )
      continue;
    out.add(line);
  }
  return out;
}
