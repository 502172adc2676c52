import type { CoverageIo } from '../side-readers.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { isObject } from './read-render.js';
import type { ChartFiles } from './read-render.js';

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** A listing that may also tell the folders inside a folder. */
type FolderIo = Pick<CoverageIo, 'list'> & { dirs?: (dir: string) => Promise<string[]> };

/** Folders under a chart's templates/ looked into at most: a chart's templates sit a level or two down. */
const MAX_TEMPLATE_DIRS = 64;

/**
 * Every file under a chart's `templates/`, its subfolders too: Helm loads and renders them all
 * (`templates/gpu/nodepool.yaml` as much as `templates/nodepool.yaml`). Subfolders are seen where
 * the listing tells folders; a changed file in one always is (changed-listing.ts).
 */
export async function templateFiles(chart: string, io: FolderIo): Promise<string[]> {
  const out: string[] = [];
  const queue = [join(chart, 'templates')];
  for (let seen = 0; queue.length > 0 && seen < MAX_TEMPLATE_DIRS; seen++) {
    const dir = queue.shift() as string;
    out.push(...(await io.list(dir)));
    if (io.dirs) queue.push(...(await io.dirs(dir)));
  }
  return out;
}

/**
 * What a template of a chart renders with besides values: the `define`s of the chart's other
 * templates (`_helpers.tpl`, as Helm parses every template of the chart before rendering one), the
 * chart's name and version from Chart.yaml, and the release, as the install names it.
 */
export async function chartFiles(
  chart: string,
  reader: CoverageIo['head'],
  io: FolderIo,
  release?: { name: string; namespace: string },
): Promise<ChartFiles> {
  const helpers: string[] = [];
  for (const path of (await templateFiles(chart, io)).sort()) {
    if (!/\.(ya?ml|tpl|txt)$/i.test(path)) continue;
    const text = await reader.read(path);
    if (text !== null && /\{\{-?\s*define\s/.test(text)) helpers.push(text);
  }
  const meta = yamlValue((await reader.read(join(chart, 'Chart.yaml'))) ?? '');
  const field = (k: string): string =>
    isObject(meta) && (typeof meta[k] === 'string' || typeof meta[k] === 'number') ? String(meta[k]) : '';
  return {
    helpers,
    chart: { name: field('name'), version: field('version'), appVersion: field('appVersion') },
    ...(release === undefined ? {} : { release }),
  };
}
