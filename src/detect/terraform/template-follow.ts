import type { CoverageIo } from '../side-readers.js';
import { dirOf } from '../kit/paths.js';
import type { CapacityParser, SetParseResult, SourceFile, Unfollowed } from '../parser.js';
import { isTfvarsPath } from './module-scope.js';
import { mayRenderTemplates } from './template-data.js';
import { fileReferences } from './templates.js';
import { isTfFile } from './tf-json.js';

type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

export interface FollowedTemplates {
  base: Side;
  head: Side;
  /** Changed templates read through the Terraform that renders them. */
  followed: string[];
}

// Templates sit beside the module or in a folder of it (`templates/`, `files/manifests/`).
const MAX_UP = 2;
// A changed file is looked for as a template only when it could be one.
const TEMPLATE_LIKE = /\.(tpl|tftpl|tmpl|ya?ml|json)$/i;

/**
 * Changed templates whose Terraform did not change: read through the module that renders them
 * (`templatefile("${path.module}/templates/nodepool.yaml.tftpl", {…})`), with its vars, by the
 * manifest reader `parser` (terraform-manifests), so a template is counted as it renders, never
 * as the YAML-with-`${…}` it is on its own. What the render cannot tell is also noted on the template.
 */
export async function followTemplates(
  changed: readonly string[],
  io: CoverageIo,
  parser: CapacityParser | undefined,
  readThroughCalls: readonly string[] = [],
): Promise<FollowedTemplates> {
  const empty = (): Side => ({ decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] });
  const result: FollowedTemplates = { base: empty(), head: empty(), followed: [] };
  if (!parser?.parseSet) return result;
  const parseSet = parser.parseSet.bind(parser);
  // A module read through its calls (module-reading.ts) has rendered its templates there, with the calls' values.
  const done = new Set([...changed.filter((p) => isTfFile(p)).map(dirOf), ...readThroughCalls]);
  for (const path of changed.filter((p) => TEMPLATE_LIKE.test(p) && !isTfvarsPath(p))) {
    const moduleDir = await rendererOf(path, io);
    // A module whose own files changed is read with its templates already.
    if (moduleDir === null || done.has(moduleDir)) continue;
    for (const side of ['base', 'head'] as const) {
      const files = await moduleFiles(moduleDir, io, side);
      if (!files.some((f) => f.path === path)) continue;
      const found = parseSet(files);
      const out = result[side];
      out.decls.push(...found.decls);
      out.unresolved.push(...(found.unresolved ?? []));
      out.diagnostics.push(...found.diagnostics);
      out.supersedes.push(...(found.supersedes ?? []));
      const notes = found.notFollowed ?? [];
      out.notFollowed.push(...notes, ...notes.map((n) => ({ ...n, file: path, line: null })));
    }
    result.followed.push(path);
  }
  return result;
}

/** The folder (the changed file's, or one or two above) whose Terraform renders the file (templatefile(), a template_file data source). */
async function rendererOf(path: string, io: CoverageIo): Promise<string | null> {
  for (let up = 0, dir = dirOf(path); up <= MAX_UP; up++, dir = dirOf(dir)) {
    for (const tf of (await io.list(dir)).filter((p) => dirOf(p) === dir && isTfFile(p))) {
      const text = (await io.head.read(tf)) ?? (await io.base.read(tf));
      if (text && mayRenderTemplates(text) && fileReferences({ path: tf, text }).includes(path)) return dir;
    }
    if (dir === '') break;
  }
  return null;
}

/** A module's Terraform files at one side, with the files they read. */
async function moduleFiles(dir: string, io: CoverageIo, side: 'base' | 'head'): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const p of (await io.list(dir)).filter((x) => dirOf(x) === dir && (isTfFile(x) || isTfvarsPath(x)))) {
    const text = await io[side].read(p);
    if (text !== null) files.push({ path: p, text });
  }
  for (const ref of [...new Set(files.flatMap((f) => fileReferences(f)))]) {
    const text = await io[side].read(ref);
    if (text !== null) files.push({ path: ref, text });
  }
  return files;
}
