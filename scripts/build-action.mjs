// Bundles the GitHub Action into action/dist: one ES module with every dependency inlined, plus the
// three packages that load WebAssembly from their own folder, copied file by file. The runner
// starts it with node directly (action.yml, runs.using: node24): no npm ci on each run.
// `node scripts/build-action.mjs --out <dir>` builds elsewhere (the staleness test compares).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = process.argv.indexOf('--out');
const out = flag >= 0 ? process.argv[flag + 1] : join(root, 'action/dist');
if (!out) throw new Error('--out needs a folder');

/** Packages left out of the bundle, with the files they read at run time. */
const EXTERNAL = {
  '@cdktf/hcl2json': ['package.json', 'main.wasm.gz', 'wasm/bridge_wasm_exec.js', 'wasm/wasm_exec.js'],
  'web-tree-sitter': ['package.json', 'LICENSE', 'tree-sitter.js', 'tree-sitter.cjs', 'tree-sitter.wasm'],
  'tree-sitter-bicep': ['package.json', 'LICENSE', 'tree-sitter-bicep.wasm'],
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(root, 'src/action/bin.ts')],
  outfile: join(out, 'index.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: Object.keys(EXTERNAL),
  // Bundled CommonJS calls require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __gjCreateRequire } from 'node:module'; const require = __gjCreateRequire(import.meta.url);" },
  legalComments: 'none',
  metafile: true,
  minify: true,
  logLevel: 'warning',
});
for (const [name, files] of Object.entries(EXTERNAL)) {
  for (const file of files) {
    const target = join(out, 'node_modules', name, file);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(root, 'node_modules', name, file), target);
  }
}

// Every bundled package's licence, as their licences ask to be carried along with the code.
const packages = new Set(Object.keys(EXTERNAL));
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match?.[1]) packages.add(match[1]);
}
const notices = [...packages].sort().map((name) => {
  const dir = join(root, 'node_modules', name);
  /** @type {unknown} */
  const parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const manifest = new Map(Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {}));
  const version = String(manifest.get('version'));
  const license = manifest.has('license') ? String(manifest.get('license')) : undefined;
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  const text = file && existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${license ?? 'not stated'}`;
  return `${name}@${version} (${license ?? 'not stated'})\n\n${text}\n`;
});
writeFileSync(
  join(out, 'THIRD-PARTY-LICENSES.txt'),
  `Packages bundled into index.mjs or copied beside it.\n\n${notices.join('\n' + '-'.repeat(72) + '\n\n')}`,
);
