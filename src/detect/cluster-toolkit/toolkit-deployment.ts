import { parseDocumentLinear } from '../../util/yaml-linear.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { clusterToolkitParser } from './cluster-toolkit.js';
import type { CoverageIo } from '../side-readers.js';
import type { SetParseResult, Unfollowed } from '../parser.js';

type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

export interface FollowedDeployments {
  base: Side;
  head: Side;
  /** Deployment files read with the blueprint beside them. */
  followed: string[];
}

// A Cluster Toolkit deployment file: the vars of a deployment, no blueprint of its own.
const DEPLOYMENT_KEYS = new Set(['vars', 'terraform_backend_defaults', 'terraform_providers', 'validators', 'validation_level']);

const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

function yamlOf(text: string | null): unknown {
  if (text === null) return undefined;
  return yamlValue(text, 'go-yaml-v3') ?? undefined;
}

/** The deployment's vars, when the document is a Cluster Toolkit deployment file. */
export function deploymentVars(doc: unknown): Record<string, unknown> | null {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return null;
  if (!Object.keys(doc).every((k) => DEPLOYMENT_KEYS.has(k))) return null;
  const vars = (doc as Record<string, unknown>).vars;
  if (vars === null || typeof vars !== 'object' || Array.isArray(vars)) return null;
  return 'deployment_name' in vars || 'project_id' in vars ? vars : null;
}

/**
 * Deployment files read as `gcluster deploy -d <deployment> <blueprint>` reads them: the
 * deployment's vars over the blueprint's, for each blueprint beside it that declares GKE node
 * pools. What the blueprint declares is reported at the deployment file.
 */
export async function followToolkitDeployments(changed: readonly string[], io: CoverageIo): Promise<FollowedDeployments> {
  const empty = (): Side => ({ decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] });
  const result: FollowedDeployments = { base: empty(), head: empty(), followed: [] };
  for (const path of changed.filter((p) => /\.ya?ml$/i.test(p))) {
    const headText = await io.head.read(path);
    if (headText === null || !/^vars[ \t]*:/m.test(headText) || deploymentVars(yamlOf(headText)) === null) continue;
    const dir = dirOf(path);
    const blueprints: string[] = [];
    for (const p of (await io.list(dir)).filter((x) => x !== path && dirOf(x) === dir && /\.ya?ml$/i.test(x))) {
      const text = await io.head.read(p);
      if (text !== null && /^blueprint_name[ \t]*:/m.test(text) && clusterToolkitParser.mightContain(p, text)) blueprints.push(p);
    }
    if (blueprints.length === 0) continue;
    const line = headText.split('\n').findIndex((l) => /^vars[ \t]*:/.test(l)) + 1;
    for (const side of ['base', 'head'] as const) {
      const vars = deploymentVars(yamlOf(await io[side].read(path))) ?? {};
      for (const bp of blueprints) {
        const text = await io[side].read(bp);
        if (text === null) continue;
        const doc = parseDocumentLinear(text);
        if (doc.errors.length > 0) continue;
        // An empty deployment var leaves the blueprint's value, as gcluster does.
        for (const [k, v] of Object.entries(vars)) if (v !== null && v !== undefined) doc.setIn(['vars', k], v);
        const found = clusterToolkitParser.parse(bp, doc.toString({ lineWidth: 0 }));
        const out = result[side];
        out.decls.push(...found.decls.map((d) => ({ ...d, file: path, line, parts: d.parts.map((p) => ({ ...p, line })) })));
        out.unresolved.push(...(found.unresolved ?? []).map((u) => ({ ...u, file: path, line })));
        out.diagnostics.push(...found.diagnostics.map((d) => ({ ...d, file: path, line, message: `with ${bp}: ${d.message}` })));
      }
    }
    result.followed.push(path);
  }
  return result;
}
