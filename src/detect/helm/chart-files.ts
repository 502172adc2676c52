import type { CoverageIo } from '../side-readers.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { isObject } from './read-render.js';
import type { ChartFiles } from './read-render.js';

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/**
 * What a template of a chart renders with besides values: the `define`s of the chart's other
 * templates (`_helpers.tpl`, as Helm parses every template of the chart before rendering one), the
 * chart's name and version from Chart.yaml, and the release, as the install names it.
 */
export async function chartFiles(
  chart: string,
  reader: CoverageIo['head'],
  io: CoverageIo,
  release?: { name: string; namespace: string },
): Promise<ChartFiles> {
  const helpers: string[] = [];
  for (const path of (await io.list(join(chart, 'templates'))).sort()) {
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
