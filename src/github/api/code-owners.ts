import type { TreeReader } from '../../domain/files.js';

/**
 * GitHub's CODEOWNERS, read from the base branch: where GitHub looks for it, in its order, and who
 * owns a path (the last matching line wins; a line without owners leaves the path unowned). The
 * pattern syntax is gitignore's without negation or character ranges, as GitHub documents it.
 */
const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

interface Rule {
  matches: RegExp;
  owners: string[];
}

export interface CodeOwners {
  file: string;
  rules: Rule[];
}

/** The first CODEOWNERS file GitHub would read; null when there is none. */
export async function readCodeOwners(tree: TreeReader): Promise<CodeOwners | null> {
  for (const file of CODEOWNERS_PATHS) {
    const text = await tree.read(file);
    if (text !== null) return { file, rules: parseRules(text) };
  }
  return null;
}

/** The owners of `path` as written (`@user`, `@org/team`, an email); empty when nobody owns it. */
export function ownersOf(codeOwners: CodeOwners, path: string): string[] {
  let owners: string[] = [];
  for (const rule of codeOwners.rules) if (rule.matches.test(path)) owners = rule.owners;
  return owners;
}

function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // `#` starts a comment unless escaped; the pattern is the first field.
    const line = raw.replace(/(^|[^\\])#.*$/, '$1').trim();
    if (line === '') continue;
    const [pattern = '', ...owners] = line.split(/\s+/);
    const matches = patternRegex(pattern.replace(/\\#/g, '#'));
    if (matches) rules.push({ matches, owners });
  }
  return rules;
}

/**
 * A pattern as a regular expression over repository paths: anchored at the root when it starts
 * with `/` or holds a `/` before its end, else matched at any depth; a match also covers everything
 * under it. `*` stays within a directory, `**` crosses them. Null for what GitHub treats as invalid.
 */
function patternRegex(pattern: string): RegExp | null {
  if (pattern === '' || pattern.startsWith('!') || /[[\]]/.test(pattern)) return null;
  let p = pattern;
  const anchored = p.startsWith('/') || p.slice(0, -1).includes('/');
  p = p.replace(/^\/+/, '');
  const directory = p.endsWith('/');
  p = p.replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    if (p.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (p.startsWith('/**', i) && i + 3 === p.length) {
      re += '/.*';
      i += 2;
    } else if (p.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`${anchored ? '^' : '^(?:.*/)?'}${re}${directory ? '/.*' : '(?:/.*)?'}$`);
}
