import { fail, ok, type Result } from '../../../domain/result.js';
import { Exec, UNKNOWABLE } from './exec.js';
import type { Limits } from './exec.js';
import { TemplateSyntaxError } from './lex.js';
import { parseTemplate } from './parse.js';
import type { Node } from './parse.js';
import { RenderError } from './values.js';

/** A template rendered: each output line knows the template line it came from. Or why not, and where. */
export type GoRender = Result<{ text: string; lineOf: (renderedLine: number) => number }, RenderFailure>;

/** Why a template did not render: at which template line, in which function when one refused. */
export interface RenderFailure {
  why: string;
  line: number;
  fn: string | null;
}

export interface ChartTemplate {
  /** The template's text. */
  text: string;
  /** Texts of the chart's other templates, read for their `define`s (`_helpers.tpl`). */
  helpers?: readonly string[];
  /** The values the chart is rendered with (the chart's values.yaml under the install's). */
  values: unknown;
  release?: { name: string; namespace: string };
  chart?: { name: string; version: string; appVersion?: string };
  /** The template's path, as `.Template.Name` gives it. */
  path?: string;
  limits?: Partial<Limits>;
}

/**
 * Real charts' capacity templates render in a few thousand steps and a few KiB; a template that
 * needs more loops over what a pull request may make as large as it likes.
 */
const LIMITS: Limits = { steps: 200_000, outputBytes: 1_048_576, depth: 64 };

/**
 * Renders one chart template as `helm template` does (text/template with missingkey=zero, Sprig
 * and Helm's functions, `<no value>` removed), within the limits. A template that uses a function
 * outside the renderer's set, reads what only the cluster knows (`.Capabilities`, `lookup`, `.Files`),
 * fails as Helm would fail, or passes a limit is not rendered: the answer names the line and why.
 */
export function renderChartTemplate(t: ChartTemplate): GoRender {
  const limits = { ...LIMITS, ...t.limits };
  const defines = new Map<string, Node[]>();
  try {
    for (const h of t.helpers ?? []) for (const [k, v] of parseTemplate(h).defines) defines.set(k, v);
  } catch (e) {
    // Helm parses every template of the chart first: one that does not parse fails them all.
    return fail({ why: `a helper template does not parse: ${e instanceof Error ? e.message : String(e)}`, line: 1, fn: null });
  }
  let line = 1;
  try {
    const parsed = parseTemplate(t.text);
    for (const [k, v] of parsed.defines) defines.set(k, v);
    const root = {
      Values: t.values ?? {},
      Release: {
        Name: t.release?.name ?? 'release-name',
        Namespace: t.release?.namespace ?? 'default',
        Service: 'Helm',
        IsInstall: true,
        IsUpgrade: false,
        Revision: 1n,
      },
      Chart: { Name: t.chart?.name ?? '', Version: t.chart?.version ?? '', AppVersion: t.chart?.appVersion ?? '' },
      Template: { Name: t.path ?? '', BasePath: (t.path ?? '').replace(/\/[^/]*$/, '') },
      Capabilities: UNKNOWABLE,
      Files: UNKNOWABLE,
    };
    const exec = new Exec(defines, limits, parseTemplate);
    const out = exec.run(parsed.root, root);
    // Helm removes what text/template prints for a missing value.
    const text = out.text.replaceAll('<no value>', '');
    return ok({ text, lineOf: (n) => out.lines[n - 1] ?? n });
  } catch (e) {
    if (e instanceof TemplateSyntaxError) return fail({ why: `the template does not parse: ${e.message}`, line: e.line, fn: null });
    if (e instanceof RenderError) {
      line = e.line ?? line;
      return fail({ why: e.message, line, fn: e.fn });
    }
    // Whatever else stops a render (a literal out of range, nesting past the stack) is a render not done.
    return fail({ why: `the template could not be rendered: ${e instanceof Error ? e.message : String(e)}`, line, fn: null });
  }
}

/**
 * Renders a short Go template against `data` as its dot, as Argo CD renders an ApplicationSet's
 * template fields with `goTemplate: true` (text/template and Sprig; a missing key prints
 * `<no value>`, which then names no folder). Null when it does not render within the limits.
 */
export function renderGoString(text: string, data: unknown): string | null {
  try {
    const parsed = parseTemplate(text);
    return new Exec(parsed.defines, { steps: 20_000, outputBytes: 65_536, depth: 16 }, parseTemplate).run(parsed.root, data).text;
  } catch {
    // Whatever stops a render here leaves the field unknown: the caller names it not followed.
    return null;
  }
}
