import type { CoverageIo } from './coverage.js';
import { namesGpu } from './gpu-signal.js';

// values.yaml, values-prod.yaml, values.gpu.yaml, prod-values.yaml.
const VALUES_RE = /(^|\/)([\w.-]*[-.])?values([-.][\w.-]*)?\.ya?ml$/i;
// Objects that declare GPU capacity, as a chart's templates spell them.
const CAPACITY_KIND_RE =
  /^\s*kind:\s*["']?(ClusterQueue|NodePool|ResourceFlavor|MachineDeployment|MachinePool|Workspace|ClusterAutoscaler|MachineSet)\b/m;
// `.Values.a.b` in an expression; `$.Values` from inside a range.
const VALUES_REF_RE = /\$?\.Values((?:\.[A-Za-z_][\w-]*)+)/g;

export function isHelmValuesPath(path: string): boolean {
  return VALUES_RE.test(path);
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** A template that declares GPU capacity (or names GPUs) and the values paths it reads. */
export interface GpuTemplate {
  path: string;
  text: string;
  refs: string[];
}

/**
 * The templates of the chart in `dir` that declare GPU capacity, with the values they read;
 * null when `dir` holds no chart (no Chart.yaml beside the values).
 */
export async function chartGpuTemplates(dir: string, io: CoverageIo): Promise<GpuTemplate[] | null> {
  const files = await io.list(dir);
  if (!files.includes(join(dir, 'Chart.yaml'))) return null;
  const templates = (await io.list(join(dir, 'templates'))).filter((p) => /\.(ya?ml|tpl)$/i.test(p)).sort();
  const out: GpuTemplate[] = [];
  for (const path of templates) {
    const text = await io.head.read(path);
    if (text === null || !(CAPACITY_KIND_RE.test(text) || namesGpu(text))) continue;
    const refs = [...new Set([...text.matchAll(VALUES_REF_RE)].map((m) => (m[1] ?? '').slice(1)))];
    if (refs.length > 0) out.push({ path, text, refs });
  }
  return out;
}

/** The values paths the chart's GPU templates read, and those templates; null without a chart. */
export async function chartGpuReferences(dir: string, io: CoverageIo): Promise<{ templates: string[]; paths: string[] } | null> {
  const found = await chartGpuTemplates(dir, io);
  if (found === null) return null;
  return { templates: found.map((t) => t.path), paths: [...new Set(found.flatMap((t) => t.refs))] };
}

const steps = (key: string): string[] => key.split(/\.|\[\d+\]/).filter((s) => s !== '');

/** The changed values keys that a template reads, or that hold what it reads. */
export function touchesReferences(changed: readonly string[], refs: readonly string[]): string[] {
  const refSteps = refs.map(steps);
  return changed.filter((key) => {
    const k = steps(key);
    return refSteps.some((r) => r.every((s, i) => i >= k.length || k[i] === s));
  });
}
