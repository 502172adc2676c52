import type { CapacityParser, ParseResult, SourceFile } from '../parser.js';
import { parseHcl } from './hcl.js';
import { MANIFEST_RESOURCE_TYPES, readManifestResources } from './k8s-manifests.js';
import { Locator } from './locator.js';
import { moduleScope } from './module-scope.js';
import type { ModuleFile } from './module-scope.js';
import { isTerraformPath } from './terraform-parser.js';

/** A `.tf` file that may declare a Kubernetes object as a Terraform resource (see k8s-manifests.ts). */
function declaresManifests(path: string, text: string): boolean {
  return path.endsWith('.tf') && MANIFEST_RESOURCE_TYPES.some((t) => text.includes(`"${t}"`));
}

/**
 * Kubernetes objects declared in Terraform (`kubernetes_manifest`, `kubectl_manifest` with
 * `yamlencode`), read by the manifest readers `inner` with the module's variables, locals and
 * tfvars resolved. A module is a directory, so a changed file is read with its siblings. HCL
 * errors are the Terraform reader's to report.
 */
export function terraformManifestsParser(inner: readonly CapacityParser[]): CapacityParser {
  const parseSet = (files: readonly SourceFile[]): ParseResult => {
    const result: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
    const parsed: (ModuleFile & { text: string })[] = [];
    for (const f of files) {
      if (!isTerraformPath(f.path)) continue;
      const hcl = parseHcl(f.path, f.text);
      if (hcl.ok) parsed.push({ path: f.path, body: hcl.body, text: f.text });
    }
    const scope = moduleScope(parsed);
    for (const f of parsed) {
      if (!declaresManifests(f.path, f.text)) continue;
      const out = readManifestResources(f.path, f.body, new Locator(f.text), scope, inner);
      result.decls.push(...out.decls);
      result.unresolved.push(...out.unresolved);
      result.diagnostics.push(...out.diagnostics);
    }
    return result;
  };
  return {
    id: 'terraform-manifests',
    acceptsPath: isTerraformPath,
    mightContain: declaresManifests,
    parse: (path, text) => parseSet([{ path, text }]),
    parseSet,
  };
}
