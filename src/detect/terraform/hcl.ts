import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

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

export type HclParsed =
  | { ok: true; body: HclBody }
  | { ok: false; line: number | null; message: string };

/** Parses one file of HCL (`.tf` or `.tfvars`) to hcl2json's JSON shape. */
export function parseHcl(file: string, text: string): HclParsed {
  let out: { err: string | null; json: string | null } | undefined;
  load().parse(file, text, (err, json) => { out = { err, json }; });
  if (!out) return { ok: false, line: null, message: 'the HCL parser gave no answer' };
  if (out.err !== null || out.json === null) return parseError(file, out.err ?? 'unknown error');
  const body: unknown = JSON.parse(out.json);
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? { ok: true, body: body as HclBody }
    : { ok: true, body: {} };
}

// "parse config: [main.tf:2,6-3,1: Invalid expression; Expected the start of an expression…]"
function parseError(file: string, err: string): HclParsed {
  const inner = err.replace(/^parse config: \[/, '').replace(/\]$/, '');
  const m = inner.startsWith(file) ? /^:(\d+),\d+(?:-\d+(?:,\d+)?)?: (.*)$/s.exec(inner.slice(file.length)) : null;
  if (!m) return { ok: false, line: null, message: inner };
  return { ok: false, line: Number(m[1]), message: (m[2] ?? '').replace(/; /, ': ') };
}
