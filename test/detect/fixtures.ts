import type { ParseResult } from '../../src/detect/parser.js';
import { kueueParser } from '../../src/detect/kueue/kueue.js';

/** Template literal for inline YAML: drops the first newline and the common indentation. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw.replace(/^\n/, '').split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(cut))
    .join('\n')
    .replace(/[ \t]+$/, '');
}

/** A ClusterQueue with one flavor per entry, each holding one resource. */
export function queueYaml(opts: {
  name: string;
  apiVersion?: string;
  cohort?: string;
  flavors: [flavor: string, resource: string, quota: string][];
}): string {
  const apiVersion = opts.apiVersion ?? 'kueue.x-k8s.io/v1beta2';
  const cohortKey = apiVersion.endsWith('v1beta1') ? 'cohort' : 'cohortName';
  const lines = [
    `apiVersion: ${apiVersion}`,
    'kind: ClusterQueue',
    'metadata:',
    `  name: ${opts.name}`,
    'spec:',
    ...(opts.cohort ? [`  ${cohortKey}: ${opts.cohort}`] : []),
    '  resourceGroups:',
    `  - coveredResources: [${[...new Set(opts.flavors.map((f) => `"${f[1]}"`))].join(', ')}]`,
    '    flavors:',
  ];
  for (const [flavor, resource, quota] of opts.flavors) {
    lines.push(`    - name: ${flavor}`, '      resources:', `      - name: "${resource}"`, `        nominalQuota: ${quota}`);
  }
  return `${lines.join('\n')}\n`;
}

export function parseKueue(text: string, path = 'queues.yaml'): ParseResult {
  return kueueParser.parse(path, text);
}

/** 1-based line of the first line containing the needle. */
export function lineOf(text: string, needle: string, nth = 1): number {
  let seen = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').includes(needle) && ++seen === nth) return i + 1;
  }
  throw new Error(`${needle} not found`);
}
