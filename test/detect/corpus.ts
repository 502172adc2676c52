import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real public files, byte for byte as their sources have them: see test/corpus/SOURCES.md. */
export const CORPUS_ROOT = fileURLToPath(new URL('../corpus', import.meta.url));

export interface CorpusFile {
  /** Path relative to the corpus root, e.g. `kueue/odh-workshop-team1-cq.yaml`. */
  path: string;
  text: string;
}

/** Not corpus files: the provenance list and the licence texts its sources require. */
const NOT_CORPUS = new Set(['SOURCES.md', 'LICENSES']);

export function corpusFiles(subdir?: string): CorpusFile[] {
  const root = subdir ? path.join(CORPUS_ROOT, subdir) : CORPUS_ROOT;
  const out: CorpusFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (NOT_CORPUS.has(entry.name)) continue;
      if (entry.isDirectory()) walk(full);
      else {
        out.push({ path: path.relative(CORPUS_ROOT, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
