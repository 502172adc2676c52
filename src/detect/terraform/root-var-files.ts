import { dirOf, resolvePath } from './module-files.js';
import type { FollowIo } from './module-findings.js';
import { isAutoTfvars, isTfvarsPath } from './module-scope.js';
import { isTfFile, parseTerraformFile } from './tf-json.js';
import { escapeRegex } from '../../util/escape-regex.js';

/** Folders searched for a root's variable files: its own and below it, and beside it, this deep. */
const MAX_DOWN = 2;
/** Folders looked into per root, at most. */
const MAX_FOLDERS = 48;
/** Variable-file sets a root is read with, at most: past it the root is not followed. */
export const MAX_VAR_SETS = 16;
/** Bytes of candidate variable files read per root, at most: past it the root is not followed. */
const MAX_VAR_BYTES = 1024 * 1024;
/** Files a CI workflow, Makefile, script or Atlantis config may name `-var-file`s in, beside the root and at the top. */
const RUNNERS = /(^|\/)(Makefile|GNUmakefile|atlantis\.ya?ml|[^/]+\.sh|[^/]+\.mk)$/;
const WORKFLOWS = ['.github/workflows', '.gitlab', '.circleci', 'scripts', 'bin', 'ci'];
const VAR_FILE = /-var-file(?:=|\s+)["']?([^\s"';|&)]+)/g;
/** `terraform -chdir=DIR …`: the line applies DIR, and its `-var-file`s are taken from there. */
const CHDIR = /-chdir=["']?([^\s"';|&)]+)/;
/** A shell or CI variable in a path (`$ENV`, `${CLUSTER}`, `${{ matrix.env }}`): any one folder or file name there. */
const PLACEHOLDER = /\$\{\{[^}]*\}\}|\$\{[^}]*\}|\$\(?[A-Za-z_]\w*\)?|\{\{[^}]*\}\}/g;

/** The variable files a root module may be applied with, in sets applied together; `past` when the bounds stopped the search. */
export interface RootVarFiles {
  sets: string[][];
  past: string | null;
}

/** The root's variable names, from the text of its files (HCL or JSON syntax). */
export function declaredIn(texts: readonly string[]): (name: string) => boolean {
  return (name) => {
    const safe = name.replace(/[^\w-]/g, '');
    const hcl = new RegExp(`\\bvariable\\s+"${safe}"`);
    const json = new RegExp(`"${safe}"\\s*:\\s*[[{]`);
    return texts.some((t) => hcl.test(t) || (/"variable"\s*:/.test(t) && json.test(t)));
  };
}

/**
 * The variable files that can be applied to a root module (`terraform/gcp` with
 * `-var-file projects/<cluster>.tfvars`): the `-var-file`s that workflows, Makefiles, scripts and
 * Atlantis configs name for it, else the tfvars files that Terraform does not load by itself in
 * the root's folder, below it and beside it (MAX_DOWN deep, in folders holding no Terraform of
 * their own), each setting only variables the root declares and that no other Terraform folder
 * near it declares all of (which one it is applied to is then not in the repository, as
 * tfvars-follow.ts finds). Each set is one application of the root; a file a runner names with
 * others is read in that set only. A runner's line with `-chdir=DIR` applies DIR alone, its files
 * taken from there, whatever other root declares their variables too.
 */
export async function rootVarFiles(root: string, declares: (name: string) => boolean, io: FollowIo): Promise<RootVarFiles> {
  const budget = { bytes: MAX_VAR_BYTES, past: null as string | null };
  const folders = await nearFolders(root, io);
  let near: Promise<((name: string) => boolean)[]> | null = null;
  const others = () => (near ??= otherModules(root, folders, io));
  const fits = async (path: string, pinned = false): Promise<boolean> => {
    const text = (await io.head.read(path)) ?? (await io.base.read(path));
    if (text === null) return false;
    budget.bytes -= text.length;
    if (budget.bytes < 0) {
      budget.past ??= `variable files for ${root || 'the root module'} past ${MAX_VAR_BYTES / 1024 / 1024} MiB`;
      return false;
    }
    const parsed = parseTerraformFile(path, text);
    const names = parsed.ok ? Object.keys(parsed.value) : [];
    if (names.length === 0 || !names.every(declares)) return false;
    // Another module near it declaring them all: which one it is applied to is not in the repository (unless `-chdir` says).
    if (!pinned) for (const other of await others()) if (names.every(other)) return false;
    return true;
  };
  const sets: string[][] = [];
  const taken = new Set<string>();
  for (const { paths: set, pinned } of await namedByRunners(root, io)) {
    const ok: string[] = [];
    for (const p of set) if (!taken.has(p) && (await fits(p, pinned))) ok.push(p);
    if (ok.length === 0) continue;
    ok.forEach((p) => taken.add(p));
    sets.push(ok);
  }
  for (const folder of folders) {
    const files = (await io.list(folder)).filter((p) => dirOf(p) === folder);
    if (folder !== root && files.some(isTfFile)) continue;
    for (const p of files.filter((f) => isTfvarsPath(f) && !(folder === root && isAutoTfvars(f))).sort()) {
      if (taken.has(p) || !(await fits(p))) continue;
      taken.add(p);
      sets.push([p]);
    }
  }
  if (sets.length > MAX_VAR_SETS) budget.past ??= `more than ${MAX_VAR_SETS} variable files for ${root || 'the root module'}`;
  return { sets: sets.slice(0, MAX_VAR_SETS), past: budget.past };
}

/** What each other Terraform folder near the root declares. */
async function otherModules(root: string, folders: readonly string[], io: FollowIo): Promise<((name: string) => boolean)[]> {
  const out: ((name: string) => boolean)[] = [];
  for (const folder of folders) {
    if (folder === root) continue;
    const tf = (await io.list(folder)).filter((p) => dirOf(p) === folder && isTfFile(p));
    const texts: string[] = [];
    for (const p of tf) texts.push((await io.head.read(p)) ?? '');
    if (texts.length > 0) out.push(declaredIn(texts));
  }
  return out;
}

/** The root's folder, those below it, and those beside it and below them: MAX_DOWN deep, MAX_FOLDERS in all. */
async function nearFolders(root: string, io: FollowIo): Promise<string[]> {
  const out = [root];
  if (!io.dirs) return out;
  const tops = root === '' ? [''] : [root, dirOf(root)];
  let level = tops;
  for (let down = 1; down <= MAX_DOWN && out.length < MAX_FOLDERS; down++) {
    const next: string[] = [];
    for (const d of level) for (const sub of await io.dirs(d)) if (!out.includes(sub) && !next.includes(sub)) next.push(sub);
    out.push(...next.slice(0, MAX_FOLDERS - out.length));
    level = next;
  }
  return out;
}

/**
 * The `-var-file` sets that runners of the repository name: one set per line, each path taken from
 * the root, from the top of the repository or from the runner's folder, whichever exists; a
 * placeholder in it (`projects/${CLUSTER}.tfvars`) stands for every file its folder holds there.
 */
async function namedByRunners(root: string, io: FollowIo): Promise<{ paths: string[]; pinned: boolean }[]> {
  const runners: string[] = [];
  for (const dir of [...new Set([root, dirOf(root), ''])])
    runners.push(...(await io.list(dir)).filter((p) => dirOf(p) === dir && RUNNERS.test(p)));
  for (const dir of WORKFLOWS) runners.push(...(await io.list(dir)).filter((p) => dirOf(p) === dir && /\.(ya?ml|sh|mk)$/.test(p)));
  const out: { paths: string[]; pinned: boolean }[] = [];
  for (const runner of [...new Set(runners)].slice(0, MAX_FOLDERS)) {
    const text = (await io.head.read(runner)) ?? '';
    if (!text.includes('-var-file')) continue;
    for (const line of text.split('\n')) {
      // A placeholder may hold spaces (`${{ matrix.env }}`): one word before the path is taken.
      const plain = line.replace(PLACEHOLDER, '$${X}');
      const named = [...plain.matchAll(VAR_FILE)].map((m) => m[1] ?? '');
      if (named.length === 0) continue;
      const chdir = CHDIR.exec(plain)?.[1];
      // `-chdir=` names the root the line applies: another root's line is not this one's.
      if (chdir !== undefined && !appliesTo(chdir, root, dirOf(runner))) continue;
      const bases = chdir === undefined ? [root, '', dirOf(runner)] : [root];
      const paths: string[][] = [];
      for (const n of named) paths.push(await resolveNamed(n, bases, io));
      const pinned = chdir !== undefined;
      // A line whose every file is one fixed path is one set; a placeholder makes one set per file it stands for.
      const fixed = paths.every((p) => p.length === 1);
      if (fixed) out.push({ paths: paths.flat(), pinned });
      else for (const p of paths.flat()) out.push({ paths: [p], pinned });
    }
  }
  return out;
}

/** Whether `-chdir=DIR` (from the top of the repository or the runner's folder, a placeholder any one name) is `root`. */
function appliesTo(chdir: string, root: string, runnerDir: string): boolean {
  const rel = chdir.replace(PLACEHOLDER, '\u0000').replace(/\/+$/, '');
  for (const base of new Set(['', runnerDir])) {
    const full = resolvePath(base, rel);
    if (full === null) continue;
    const steps = full === '' ? [] : full.split('/');
    const want = root === '' ? [] : root.split('/');
    if (steps.length === want.length && steps.every((step, i) => matches(step, want[i] ?? ''))) return true;
  }
  return false;
}

/** The files a `-var-file` argument names from one of `bases`, a placeholder matching any one name there (folder or file). */
async function resolveNamed(named: string, bases: readonly string[], io: FollowIo): Promise<string[]> {
  if (!isTfvarsPath(named.replace(PLACEHOLDER, 'x'))) return [];
  for (const base of bases) {
    const full = resolvePath(base, named.replace(PLACEHOLDER, '\u0000'));
    if (full === null) continue;
    const steps = full.split('/');
    let folders = [''];
    for (const step of steps.slice(0, -1)) {
      const next: string[] = [];
      for (const at of folders) {
        if (!step.includes('\u0000')) next.push(at === '' ? step : `${at}/${step}`);
        else if (io.dirs) next.push(...(await io.dirs(at)).filter((d) => matches(step, d.slice(d.lastIndexOf('/') + 1))));
      }
      folders = next.slice(0, MAX_FOLDERS);
    }
    const last = steps[steps.length - 1] ?? '';
    const found: string[] = [];
    for (const at of folders)
      found.push(...(await io.list(at)).filter((p) => dirOf(p) === at && matches(last, p.slice(p.lastIndexOf('/') + 1))));
    if (found.length > 0) return found.sort();
  }
  return [];
}

/** A name against a step of a path whose placeholders (NUL) stand for any name. */
const matches = (step: string, name: string) => new RegExp(`^${step.split('\u0000').map(escapeRegex).join('[^/]+')}$`).test(name);
