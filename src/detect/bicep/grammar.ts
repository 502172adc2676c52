import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { Tree } from 'web-tree-sitter';

/**
 * Bicep's grammar (tree-sitter-bicep, as WebAssembly: no native build), loaded once when the
 * module is imported so that parsing stays synchronous like every other reader's. Should it
 * fail to load, Bicep files get a diagnostic saying so instead of a crash.
 */
async function load(): Promise<{ parser: Parser } | { error: string }> {
  try {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-bicep/tree-sitter-bicep.wasm');
    const parser = new Parser();
    parser.setLanguage(await Language.load(wasm));
    return { parser };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

const loaded = await load();

/** The syntax tree of a Bicep text, or why Bicep cannot be read here. */
export function parseBicep(text: string): { tree: Tree } | { error: string } {
  if ('error' in loaded) return { error: `the Bicep grammar could not be loaded (${loaded.error})` };
  const tree = loaded.parser.parse(text);
  return tree === null ? { error: 'the Bicep parser gave no tree' } : { tree };
}
