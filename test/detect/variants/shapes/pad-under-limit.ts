import { MAX_FILE_CHARS } from '../../../../src/domain/limits.js';
import type { Rewrite } from '../rewrite.js';
import { changedFiles } from '../variant-tree.js';

/** A `#` comment line; YAML, HCL and tfvars take it, JSON and Bicep do not. */
const LINE = `# ${'-'.repeat(78)}\n`;

/** The changed files padded with comments to just under the 1 MiB a review reads, at both sides: read whole, the same count. */
export const padUnderLimit: Rewrite = {
  id: 'pad-under-limit',
  what: 'the changed files padded with comments to just under 1 MiB',
  apply: (sides) => {
    const paths = changedFiles(sides).filter((p) => /\.(ya?ml|tf|tfvars|hcl)$/.test(p));
    if (paths.length === 0) return null;
    const pad = (text: string) =>
      `${text.replace(/\n*$/, '\n')}${LINE.repeat(Math.floor((MAX_FILE_CHARS - text.length - 1024) / LINE.length))}`;
    const base = { files: { ...sides.base.files }, special: { ...sides.base.special } };
    const head = { files: { ...sides.head.files }, special: { ...sides.head.special } };
    for (const p of paths) {
      const [b, h] = [base.files[p], head.files[p]];
      if (b !== undefined) base.files[p] = pad(b);
      if (h !== undefined) head.files[p] = pad(h);
    }
    return { base, head };
  },
};
