import type { Rewrite } from '../rewrite.js';
import { mapFiles } from '../variant-tree.js';

/** Every YAML file of the case opened by a UTF-8 byte order mark, which go-yaml (v2 and v3) skips. */
export const utf8Bom: Rewrite = {
  id: 'utf8-bom',
  what: 'every YAML file opened by a UTF-8 BOM',
  apply: (sides) =>
    mapFiles(sides, (path, text) => (/\.ya?ml$/i.test(path) && !text.startsWith('\ufeff') ? { [path]: `\ufeff${text}` } : null)),
};
