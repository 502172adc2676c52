import type { Rewrite } from '../rewrite.js';
import { mapFiles } from '../variant-tree.js';

/** Every text file of the case with Windows line ends, as a checkout with `core.autocrlf` makes it. */
export const crlf: Rewrite = {
  id: 'crlf',
  what: 'every file with CRLF line ends',
  apply: (sides) => mapFiles(sides, (path, text) => (text.includes('\r') ? null : { [path]: text.replace(/\n/g, '\r\n') })),
};
