import { argoInstalls, isObj, str } from './gitops-installs.js';
import type { GitopsInstall } from './gitops-installs.js';
import { ELEMENT, generate, MAX_APPS, substitute, TemplateFieldError } from './appset-generators.js';
import type { GeneratorIo, Params } from './appset-generators.js';

type Obj = Record<string, unknown>;

/**
 * An Argo CD ApplicationSet's installs: its generators' parameter sets (generators read from the
 * repository: `list`, `git`, `matrix`, `merge`) each fill the template into one Application, read
 * as a written Application is. Where the Applications cannot be worked out from the repository (a
 * generator that lists clusters, pull requests or an outside service's items; a field that does not
 * render), the template's installs come back `templated`, naming why: they are then only named.
 */
export async function appSetInstalls(set: Obj, io: GeneratorIo): Promise<GitopsInstall[]> {
  const spec = isObj(set.spec) ? set.spec : {};
  const name = (isObj(set.metadata) ? str(set.metadata.name) : null) ?? '(unnamed)';
  const template = isObj(spec.template) ? spec.template : {};
  const unworked = (why: string): GitopsInstall[] =>
    argoInstalls(`ApplicationSet/${name}`, isObj(template.spec) ? template.spec : {}, name).map((i) => ({ ...i, templated: why }));
  if (!isObj(template.spec)) return [];
  if (spec.templatePatch !== undefined) return unworked('an ApplicationSet templatePatch is not worked out');
  const goTemplate = spec.goTemplate === true;
  const params: Params[] = [];
  for (const gen of Array.isArray(spec.generators) ? spec.generators : []) {
    const made = await generate(gen, goTemplate, io);
    if (!made.ok) return unworked(`an ApplicationSet: ${made.error}`);
    params.push(...made.value);
  }
  if (params.length > MAX_APPS) return unworked(`an ApplicationSet of more than ${MAX_APPS} Applications`);
  const apps: { name: string; spec: Obj; element: string[] }[] = [];
  for (const p of params) {
    let app: unknown;
    try {
      app = substitute(template, p, goTemplate);
    } catch (e) {
      if (e instanceof TemplateFieldError) return unworked(`an ApplicationSet template field: ${e.message}`);
      throw e;
    }
    if (!isObj(app) || !isObj(app.spec)) continue;
    const appName = (isObj(app.metadata) ? str(app.metadata.name) : null) ?? '(unnamed)';
    apps.push({ name: appName, spec: app.spec, element: p[ELEMENT] ?? [] });
  }
  // Labelled even when there is one: an element added or removed keeps the others' names.
  return apps.flatMap((app) =>
    argoInstalls(`ApplicationSet/${name}/${app.name}`, app.spec, app.name).map((i) => ({
      ...i,
      copy: app.name,
      ...(app.element.length > 0 ? { element: app.element } : {}),
    })),
  );
}
