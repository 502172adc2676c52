/**
 * Template placeholders seen in infra repos: Helm / Go text/template `{{ … }}`, Terraform
 * templatefile and envsubst `${…}`, Terraform directives `%{…}`, Cluster Toolkit `$(…)`.
 */
const TEMPLATE_RE = /\{\{.*?\}\}|\$\{[^}\n]*\}|%\{[^}\n]*\}|\$\((?:vars|module|[a-z_][\w-]*)\.[^)\n]*\)/;

/** The first template expression in the text, or null. */
export function findTemplateExpression(text: string): string | null {
  const m = TEMPLATE_RE.exec(text);
  return m ? m[0] : null;
}

export function hasTemplateSyntax(text: string): boolean {
  return TEMPLATE_RE.test(text) || text.includes('{{');
}
