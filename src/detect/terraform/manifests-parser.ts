import type { CapacityParser, ParseResult, SourceFile } from '../parser.js';
import { MANIFEST_RESOURCE_TYPES, readManifestResources } from './k8s-manifests.js';
import { isTfFile, locatorFor } from './tf-json.js';
import { isTerraformPath, parseModule } from './terraform-parser.js';

/** A `.tf` file that may declare a Kubernetes object as a Terraform resource (see k8s-manifests.ts). */
function declaresManifests(path: string, text: string): boolean {
  return isTfFile(path) && MANIFEST_RESOURCE_TYPES.some((t) => text.includes(`"${t}"`));
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
    const { parsed, scope } = parseModule(files);
    for (const f of parsed) {
      if (!declaresManifests(f.path, f.text)) continue;
      const out = readManifestResources(f.path, f.body, locatorFor(f.path, f.text), scope, inner);
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
