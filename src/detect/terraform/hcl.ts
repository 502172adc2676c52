import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { escapeRegex } from '../../util/escape-regex.js';
import { fail, ok } from '../../domain/result.js';
import type { Result } from '../../domain/result.js';

/**
 * HCL is parsed by HashiCorp's own Go parser (hclsyntax), compiled to WebAssembly and shipped
 * in @cdktf/hcl2json. The package's API is asynchronous only because it loads the module
 * lazily; the parse itself answers synchronously. Parsers here must be synchronous, so the
 * module is instantiated synchronously on first use (about 150 ms, once per process) and its
 * `parse` called directly. The package version is pinned: this relies on its file layout.
 */
type Callback = (err: string | null, json: string | null) => void;
interface Bridge {
  parse(filename: string, text: string, cb: Callback): void;
}

// The lib settings carry no WebAssembly types; these are the calls used.
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => object;
}
interface GoRuntime {
  importObject: object;
  run(instance: object): Promise<void>;
}

let bridge: Bridge | undefined;

function load(): Bridge {
  if (bridge) return bridge;
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('@cdktf/hcl2json/package.json'));
  require(path.join(root, 'wasm', 'bridge_wasm_exec.js'));
  const g = globalThis as unknown as { Go: new () => GoRuntime; WebAssembly: Wasm } & Record<string, unknown>;
  const go = new g.Go();
  const module = new g.WebAssembly.Module(gunzipSync(readFileSync(path.join(root, 'main.wasm.gz'))));
  const instance = new g.WebAssembly.Instance(module, go.importObject);
  // The Go program registers its functions on this global object, then waits for calls.
  const own = {} as Bridge;
  const previous = g.__parse_terraform_config_wasm__;
  g.__parse_terraform_config_wasm__ = own;
  void go.run(instance);
  if (previous !== undefined) g.__parse_terraform_config_wasm__ = previous;
  if (typeof own.parse !== 'function') throw new Error('the HCL parser did not start');
  bridge = own;
  return own;
}

export type HclBody = Record<string, unknown>;

/** Why a file is no HCL: the parser's first error, at its line when it names one. */
interface HclError {
  line: number | null;
  message: string;
}

export type HclParsed = Result<HclBody, HclError>;

/**
 * Deeper nesting than any real configuration has. The Go parser recurses per level: a file nested
 * a few thousand levels deep overflows the JavaScript stack inside WebAssembly and leaves the Go
 * runtime broken for every later file of the process, so such a file is refused before parsing.
 */
const MAX_HCL_NESTING = 200;

/** Parses one file of HCL (`.tf` or `.tfvars`) to hcl2json's JSON shape. */
export function parseHcl(file: string, text: string): HclParsed {
  const deep = deepestNesting(text);
  if (deep.depth > MAX_HCL_NESTING) {
    return fail({ line: deep.line, message: `nesting deeper than ${MAX_HCL_NESTING} levels` });
  }
  let out: { err: string | null; json: string | null } | undefined;
  try {
    load().parse(file, text, (err, json) => {
      out = { err, json };
    });
  } catch (err) {
    // The runtime may be left mid-call; the next file gets a fresh one.
    bridge = undefined;
    return fail({ line: null, message: `the HCL parser failed: ${err instanceof Error ? err.message : String(err)}` });
  }
  if (!out) {
    bridge = undefined;
    return fail({ line: null, message: 'the HCL parser gave no answer' });
  }
  if (out.err !== null || out.json === null) return parseError(file, out.err ?? 'unknown error');
  const body: unknown = JSON.parse(out.json);
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? ok(body as HclBody) : ok({});
}

// "parse config: [main.tf:2,6-3,1: Invalid expression; Expected the start of an expression…]"
function parseError(file: string, err: string): HclParsed {
  const inner = err.replace(/^parse config: \[/, '').replace(/\]$/, '');
  const m = inner.startsWith(file) ? /^:(\d+),\d+(?:-\d+(?:,\d+)?)?: (.*)$/s.exec(inner.slice(file.length)) : null;
  if (!m) return fail({ line: null, message: inner });
  // Several errors come joined in one string: name the first, count the rest by line.
  const rest = m[2] ?? '';
  const next = new RegExp(`\\s*${escapeRegex(file)}:(\\d+),\\d+(?:-\\d+(?:,\\d+)?)?: `, 'g');
  const more = [...rest.matchAll(next)];
  const first = (more[0] ? rest.slice(0, more[0].index) : rest).replace(/; /, ': ');
  const lines = [...new Set(more.map((x) => x[1]))];
  const tail =
    more.length === 0
      ? ''
      : ` (and ${more.length} more error${more.length === 1 ? '' : 's'} at line${lines.length === 1 ? '' : 's'} ${lines.join(', ')})`;
  return fail({ line: Number(m[1]), message: first + tail });
}

/** The deepest bracket nesting and the line where it is first reached; strings count too (an over-estimate). */
function deepestNesting(text: string): { depth: number; line: number } {
  let depth = 0;
  let max = 0;
  let line = 1;
  let lineOfMax = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 123 || c === 91 || c === 40) {
      depth++;
      if (depth > max) {
        max = depth;
        lineOfMax = line;
      }
    } else if ((c === 125 || c === 93 || c === 41) && depth > 0) depth--;
  }
  return { depth: max, line: lineOfMax };
}
