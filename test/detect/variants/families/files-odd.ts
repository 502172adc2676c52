import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { baseName, dirOf, freeKubeFiles, join, moveFiles } from '../shapes/kube-files.js';
import { changedFiles, mapFiles } from '../variant-tree.js';
import type { Sides } from '../variant-tree.js';

/** A folder and file names as people write them: spaces, accents, a dash that is no hyphen. */
const ODD_DIR = 'équipe GPU – prod';
const oddName = (name: string) => `pools ü ${name}`;

/** The changed `.tf` files no other file names: Terraform reads every `.tf` file of a folder, whatever its name. */
function freeTfFiles(sides: Sides): string[] {
  const all: Tree = { ...sides.base.files, ...sides.head.files };
  return changedFiles(sides).filter(
    (p) =>
      p.endsWith('.tf') &&
      sides.base.files[p] !== undefined &&
      sides.head.files[p] !== undefined &&
      !Object.entries(all).some(([f, t]) => f !== p && t.includes(baseName(p))),
  );
}

/** The changed files of objects moved into a folder whose name has spaces and accents, and `.tf` files renamed so. */
export const oddPathNames: Rewrite = {
  id: 'path-spaces-unicode',
  what: 'the changed files under a folder or a name with spaces and accents, `équipe GPU – prod/`',
  apply: (sides) => {
    const kube = freeKubeFiles(sides);
    const tf = freeTfFiles(sides);
    const to = (p: string) => (kube.includes(p) ? join(join(dirOf(p), ODD_DIR), baseName(p)) : join(dirOf(p), oddName(baseName(p))));
    return moveFiles(sides, [...kube, ...tf], to);
  },
};

/**
 * The file with blanks after its lines where they are no content (YAML outside block scalars, HCL
 * outside heredocs): spaces, not tabs, since go-yaml takes a tab after `key:` as the start of a token.
 */
function padLines(path: string, text: string): string | null {
  const yaml = /\.ya?ml$/i.test(path);
  if (!yaml && !/\.(tf|tfvars|hcl)$/.test(path)) return null;
  let block: number | null = null;
  let heredoc: string | null = null;
  const lines = text.split('\n').map((line) => {
    const indent = line.length - line.trimStart().length;
    if (heredoc !== null) {
      if (line.trim() === heredoc) heredoc = null;
      return line;
    }
    if (block !== null) {
      if (line.trim() !== '' && indent <= block) block = null;
      else return line;
    }
    if (yaml && /(^|[:-]\s)[|>][-+0-9]*\s*(#.*)?$/.test(line)) block = indent;
    const marker = !yaml ? /<<-?\s*"?([A-Za-z_]\w*)"?\s*$/.exec(line) : null;
    if (marker) heredoc = marker[1] ?? null;
    return line === '' || line.trimEnd() !== line || marker || block === indent ? line : `${line}   `;
  });
  return `${yaml ? '\ufeff' : ''}${lines.join('\r\n')}`;
}

/** Every YAML and HCL file with a byte order mark (YAML), CRLF line ends and trailing blanks on its lines at once. */
export const crlfBomTrailing: Rewrite = {
  id: 'crlf-bom-trailing',
  what: 'every YAML and HCL file with CRLF ends, trailing blanks and (YAML) a BOM at once',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      if (text.includes('\r') || text.startsWith('\ufeff')) return null;
      const out = padLines(path, text);
      return out === null ? null : { [path]: out };
    }),
};
