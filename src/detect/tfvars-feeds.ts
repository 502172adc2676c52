import type { NotFollowed } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { isGpuKey } from './kit/signal-scan/signals.js';
import { dirOf } from './kit/paths.js';
import { isTfvarsPath } from './terraform/module-scope.js';
import { isTfFile, parseTerraformFile } from './terraform/tf-json.js';
import { moduleFeeds } from './terraform-feeds.js';
import type { FeedIo, ModuleFeeds, UnreadGpu } from './terraform-feeds.js';
import { escapeRegex } from '../util/escape-regex.js';

/** One side of the pull request for the feed: its reader, and the folders already judged. */
export interface TfvarsSide extends FeedIo {
  cache: Map<string, Promise<ModuleFeeds>>;
}

/**
 * A variable file read with its module (beside it, or found above by follow-modules): each
 * changed value that names a GPU as the floor does (namesGpuAsFloor), or is set under a key that does (`gpu_nodes_count = 4`: the
 * floor's GPU key), must feed, in that module, only what is read (terraform-feeds.ts),
 * else it is not followed at its key. A value that did not change changes nothing, as the input
 * checks (input-files.ts) judge such files; a file whose module is not known is theirs alone.
 */
export async function tfvarsNotFed(
  path: string,
  texts: { before: string | null; after: string | null },
  moduleDir: string | undefined,
  sides: { base: TfvarsSide; head: TfvarsSide },
): Promise<NotFollowed[]> {
  if (!isTfvarsPath(path)) return [];
  const dir = moduleDir ?? ((await sides.head.list(dirOf(path))).some((p) => dirOf(p) === dirOf(path) && isTfFile(p)) ? dirOf(path) : null);
  if (dir === null) return [];
  const body = (text: string | null): Record<string, unknown> | null => {
    if (text === null) return {};
    const parsed = parseTerraformFile(path, text);
    return parsed.ok ? parsed.value : null;
  };
  const before = body(texts.before);
  const after = body(texts.after);
  // A side that does not parse is the Terraform parser's to report.
  if (before === null || after === null) return [];
  const out: NotFollowed[] = [];
  const reaching: NotFollowed[] = [];
  for (const key of [...new Set([...Object.keys(after), ...Object.keys(before)])]) {
    const [b, a] = [JSON.stringify(before[key] ?? null), JSON.stringify(after[key] ?? null)];
    if (a === b) continue;
    const atHead = key in after;
    const side = atHead ? sides.head : sides.base;
    const feeds = await moduleFeeds(dir, side, side.cache);
    // A value for a variable the module does not declare sets nothing (Terraform warns and passes over it).
    if (feeds.variableFed(key) || !feeds.declares(key)) continue;
    const text = (atHead ? texts.after : texts.before) ?? '';
    const line = lineOfKey(text, key);
    if (!(isGpuKey(key) || namesGpuAsFloor(path, key, a) || namesGpuAsFloor(path, key, b))) {
      // A value that names no GPU (a group's `target_size`) still sizes what the module declares
      // from it: where what it reaches names GPUs nothing reads (an instance template's machine type
      // in another module), the change is not followed, never passed as no change; where it reaches
      // only blocks that name none (a CPU group beside the GPU one), it changes no GPU capacity.
      const gpu = feeds.reachedGpu(`var.${key}`);
      if (gpu !== null) reaching.push(reachNote(path, key, atHead ? line : null, gpu));
      continue;
    }
    const token = accountSignals(path, text).signals.find((s) => line === null || s.line >= line)?.token ?? key;
    out.push({
      file: path,
      line: atHead ? line : null,
      reason: 'unaccounted-signal',
      subject: token,
      ...(atHead ? {} : { needs: `line ${line ?? 1} before this change` }),
      inputs: [key],
    });
  }
  // One entry per file, at its first such key, naming every key.
  const [first] = out.sort((x, y) => (x.line ?? 0) - (y.line ?? 0));
  if (first !== undefined) return [{ ...first, inputs: out.flatMap((n) => n.inputs ?? []) }];
  return reaching.slice(0, 1);
}

/**
 * A changed value (`subject`: the variable it sets) that feeds what a module builds where the
 * module names a GPU nothing reads (`needs`: where; `inputs`: the name).
 */
function reachNote(file: string, name: string, line: number | null, gpu: UnreadGpu): NotFollowed {
  return { file, line, reason: 'gpu-reference', subject: `var.${name}`, needs: `${gpu.path}:${gpu.line}`, inputs: [gpu.token] };
}

/**
 * The value names a GPU as the floor reads GPU names (kit/signal-scan): a machine type, an
 * accelerator, a GPU resource, a GPU key. A word such as `nvidia` in a machine image's name
 * (`amazon-eks-node-al2023-x86_64-nvidia-1.35-*`) sizes nothing, as it does not where the same
 * value is a variable's default.
 */
function namesGpuAsFloor(path: string, key: string, json: string): boolean {
  return json !== 'null' && accountSignals(path, `${key} = ${json}\n`).signals.length > 0;
}

function lineOfKey(text: string, key: string): number | null {
  const escaped = escapeRegex(key);
  const m = new RegExp(`^[ \\t]*["']?${escaped}["']?[ \\t]*[=:]`, 'm').exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}
