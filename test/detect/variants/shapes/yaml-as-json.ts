import { parseAllDocuments } from 'yaml';
import type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { freeKubeFiles, moveFiles } from './kube-files.js';

/**
 * YAML read as go-yaml reads it into untyped values: YAML 1.1 with merge keys, and a timestamp left
 * as the string written (go-yaml makes a time only for a time-typed target), never a date.
 */
const GO_YAML_READING: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  merge: true,
  customTags: (tags) => tags.filter((t) => typeof t !== 'object' || t.tag !== 'tag:yaml.org,2002:timestamp'),
};

/** The objects of a YAML file as go-yaml reads them (aliases resolved), in JSON. */
function asJson(text: string): string {
  const objects = parseAllDocuments(text, GO_YAML_READING)
    .map((d) => d.toJS({ maxAliasCount: -1 }) as unknown)
    .filter((o) => o !== null);
  const body = objects.length === 1 ? objects[0] : { apiVersion: 'v1', kind: 'List', items: objects };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** Each changed file of Kubernetes objects that nothing names written as a `.json` manifest, which kubectl applies the same. */
export const yamlAsJson: Rewrite = {
  id: 'yaml-as-json',
  what: 'each file of Kubernetes objects as a `.json` manifest',
  apply: (sides) => moveFiles(sides, freeKubeFiles(sides), (p) => p.replace(/\.ya?ml$/, '.json'), asJson),
};
