import { LineCounter } from 'yaml';
import { MAX_FILE_CHARS } from '../../domain/index.js';
import type { CapacityDecl } from '../../domain/index.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { flavorModels } from './kueue-flavors.js';
import { KUEUE_KIND, queueModel } from './kueue-queue.js';
import { fileFormat } from '../kit/yaml-segments.js';
import { dirOf } from '../kit/paths.js';

/** The most files of one directory read for ResourceFlavors. */
const MAX_FLAVOR_FILES = 16;

export interface FlavorIo {
  /** Files directly inside a directory. */
  list(dir: string): Promise<string[]>;
  read(path: string): Promise<string | null>;
}

/**
 * ResourceFlavors often have a file of their own (`flavors.yaml` beside the queues), so a queue
 * whose flavors were not in its file gets its GPU model from the YAML files of its directory:
 * the first `MAX_FLAVOR_FILES` of them in path order, its own file's flavors winning a clash.
 */
export async function fillModelsFromDirectory(decls: readonly CapacityDecl[], io: FlavorIo): Promise<void> {
  const byDir = new Map<string, CapacityDecl[]>();
  for (const d of decls) {
    if (d.kind !== KUEUE_KIND || d.gpuModel !== null || d.parts.length === 0) continue;
    const dir = dirOf(d.file);
    // Appended in place: copying the list per queue would be quadratic in a file of thousands.
    const list = byDir.get(dir);
    if (list) list.push(d);
    else byDir.set(dir, [d]);
  }
  for (const [dir, queues] of byDir) {
    const files = (await io.list(dir))
      .filter((p) => fileFormat(p) === 'yaml')
      .sort()
      .slice(0, MAX_FLAVOR_FILES);
    const docs = new Map<string, YamlDoc[]>();
    for (const path of files) {
      const text = await io.read(path);
      if (text === null || text.length > MAX_FILE_CHARS || !text.includes('ResourceFlavor')) continue;
      docs.set(
        path,
        readYaml(text, new LineCounter(), { lists: true }).filter((d) => d.errors.length === 0),
      );
    }
    if (docs.size === 0) continue;
    for (const q of queues) {
      const ordered = [...docs].sort(([a], [b]) => Number(a === q.file) - Number(b === q.file));
      q.gpuModel = queueModel(q.parts, flavorModels(ordered.flatMap(([, d]) => d)));
    }
  }
}
