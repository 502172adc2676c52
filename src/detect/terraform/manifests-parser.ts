import { accountedOf } from '../parser.js';
import type {
  AccountedLines,
  Accounting,
  CapacityParser,
  Coverage,
  ParseResult,
  SetParseResult,
  SourceFile,
  Unfollowed,
} from '../parser.js';
import { TerraformBudget } from './expr-budget.js';
import { mayRenderTemplates } from './template-data.js';
import { dataRenderedTemplates, fileReferences, readTemplateAttributes, renderedTemplates } from './templates.js';
import { MANIFEST_RESOURCE_TYPES, readManifestResources } from './k8s-manifests.js';
import { isTfFile, locatorFor } from './tf-json.js';
import { isTerraformPath, overBudget, parseModule } from './terraform-parser.js';

/** A `.tf` file that may declare a Kubernetes object as a Terraform resource (see k8s-manifests.ts), or render a template. */
function declaresManifests(path: string, text: string): boolean {
  return isTfFile(path) && (MANIFEST_RESOURCE_TYPES.some((t) => text.includes(`"${t}"`)) || mayRenderTemplates(text));
}

/**
 * Kubernetes objects declared in Terraform (`kubernetes_manifest`, `kubectl_manifest` with
 * `yamlencode`), read by the manifest readers `inner` with the module's variables, locals and
 * tfvars resolved. A module is a directory, so a changed file is read with its siblings. HCL
 * errors are the Terraform reader's to report.
 */
export function terraformManifestsParser(inner: readonly CapacityParser[], renders: readonly CapacityParser[] = inner): CapacityParser {
  const parseSet = (files: readonly SourceFile[]): SetParseResult & Coverage & Accounting => {
    const budget = new TerraformBudget();
    const result: Required<SetParseResult> & { notFollowed: Unfollowed[]; accounted: AccountedLines[] } = {
      decls: [],
      diagnostics: [],
      unresolved: [],
      notFollowed: [],
      // A rendered template's own reading (YAML with `${…}` in it) gives way to the render.
      supersedes: renderedTemplates(files),
      replaces: [],
      accounted: [],
    };
    const { parsed, scope } = parseModule(files, budget);
    result.supersedes.push(...dataRenderedTemplates(parsed, files));
    for (const f of parsed) {
      if (!declaresManifests(f.path, f.text)) continue;
      const loc = locatorFor(f.path, f.text);
      const manifests = readManifestResources(f.path, f.body, loc, scope, inner);
      const outs: (Required<ParseResult> & Coverage)[] = [manifests];
      // Manifests stand for their objects; a template attribute of a resource says which lines it read (templates.ts).
      result.accounted.push(...accountedOf(manifests));
      if (mayRenderTemplates(f.text)) {
        const templates = readTemplateAttributes(f.path, f.body, loc, scope, renders);
        outs.push(templates);
        result.accounted.push(...templates.accounted);
      }
      for (const out of outs) {
        result.decls.push(...out.decls);
        result.unresolved.push(...out.unresolved);
        result.diagnostics.push(...out.diagnostics);
        result.notFollowed.push(...(out.notFollowed ?? []));
      }
    }
    return budget.exceeded === null ? result : overBudget(files, result, budget.exceeded);
  };
  return {
    id: 'terraform-manifests',
    acceptsPath: isTerraformPath,
    mightContain: declaresManifests,
    parse: (path, text) => parseSet([{ path, text }]),
    parseSet,
    references: fileReferences,
  };
}
