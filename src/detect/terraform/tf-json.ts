import type { HclBody, HclParsed } from './hcl.js';
import { fail, ok } from '../../domain/result.js';
import { parseHcl } from './hcl.js';
import { Locator } from './locator.js';
import type { Span } from './locator.js';

/** Terraform's JSON syntax: `main.tf.json` beside (or instead of) `main.tf`, `x.tfvars.json`; OpenTofu's `main.tofu.json`. */
function isTerraformJson(path: string): boolean {
  return isConfigJson(path) || path.endsWith('.tfvars.json');
}

/** A configuration file in JSON syntax: Terraform's `.tf.json`, OpenTofu's `.tofu.json`. */
function isConfigJson(path: string): boolean {
  return path.endsWith('.tf.json') || path.endsWith('.tofu.json');
}

/**
 * A configuration file of a module in either syntax: Terraform's `.tf` and `.tf.json`, and
 * OpenTofu's `.tofu` and `.tofu.json`, which OpenTofu loads as it loads `.tf` files (and in place
 * of a `.tf` file of the same name: `shadowedByTofu` in opentofu-files.ts).
 */
export function isTfFile(path: string): boolean {
  return path.endsWith('.tf') || path.endsWith('.tofu') || isConfigJson(path);
}

// Blocks with two labels (`resource "type" "name"`) and with one.
const TWO_LABELS = new Set(['resource', 'data', 'ephemeral']);
const ONE_LABEL = new Set(['module', 'variable', 'output', 'provider', 'check']);
const NO_LABEL = new Set(['locals', 'terraform', 'import', 'moved', 'removed']);

/**
 * A Terraform file parsed to hcl2json's shape, whichever syntax it is written in: a `.tf.json`
 * file's blocks (an object, or a list of objects, per label) become lists of blocks, `//` comment
 * keys are dropped, and a `.tfvars.json` file's strings are values, never expressions.
 */
export function parseTerraformFile(path: string, text: string): HclParsed {
  if (!isTerraformJson(path)) return parseHcl(path, text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail({ line: null, message: `not valid JSON (${err instanceof Error ? err.message : String(err)})` });
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return fail({ line: 1, message: 'the JSON is not an object' });
  const body = withoutComments(json) as HclBody;
  if (path.endsWith('.tfvars.json')) return ok(literal(body) as HclBody);
  const out: HclBody = {};
  for (const [key, value] of Object.entries(body)) {
    if (TWO_LABELS.has(key)) out[key] = mapValues(value, (byName) => mapValues(byName, blocks));
    else if (ONE_LABEL.has(key)) out[key] = mapValues(value, blocks);
    else if (NO_LABEL.has(key)) out[key] = blocks(value);
    else out[key] = value;
  }
  return ok(out);
}

function blocks(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

function mapValues(v: unknown, f: (x: unknown) => unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)]));
}

function withoutComments(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutComments);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== '//')
      .map(([k, x]) => [k, withoutComments(x)]),
  );
}

/** Values of a variable file in JSON are literal: `${` in them is text, as hcl2json would escape it. */
function literal(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
  if (Array.isArray(v)) return v.map(literal);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)]));
  return v;
}

/**
 * Finds values in a `.tf.json` file: a step `[key, ...labels]` (`['resource', type, name]`) is a
 * key inside a key, and a block written as a list of one object is read as that object.
 */
class JsonLocator extends Locator {
  constructor(text: string) {
    super(text, true);
  }

  /** The top-level object's inside: its keys are the file's blocks. */
  override file(): Span {
    const whole = super.file();
    return this.element(whole, 0) ?? whole;
  }

  override path(within: Span, steps: readonly (string | readonly string[])[]): Span | null {
    let span: Span | null = within;
    for (const step of steps) {
      for (const key of typeof step === 'string' ? [step] : step) {
        if (!span) return null;
        span = this.child(span, key);
        if (span && this.opensList(span)) span = this.element(span, 0) ?? span;
      }
    }
    return span;
  }
}

/** The locator for a Terraform file of either syntax. */
export function locatorFor(path: string, text: string): Locator {
  return isConfigJson(path) ? new JsonLocator(text) : new Locator(text);
}
