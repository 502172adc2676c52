import type { SourceFile } from '../parser.js';
import type { CoverageIo } from '../side-readers.js';

/* Paths within a repository's modules, and a module's files read from one side. */

// A variable file read as the one Terraform applies last (-var-file wins over the auto files).
export const GIVEN_TFVARS = '~given.auto.tfvars';

export const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));
export const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** `a/b` + `../c` → `a/c`; null when it leaves the repository. */
export function resolvePath(dir: string, rel: string): string | null {
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(step);
  }
  return out.join('/');
}

/** The files of `paths` there at `side`, in order; those absent left out. */
export async function readFiles(io: CoverageIo, side: 'base' | 'head', paths: readonly string[]): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  for (const path of paths) {
    const text = await io[side].read(path);
    if (text !== null) out.push({ path, text });
  }
  return out;
}
