import type { FollowedModules } from './terraform/follow-modules.js';
import type { Coverage, SetParseResult } from './parser.js';
import { dirOf } from './kit/paths.js';

const inside = (file: string, dirs: ReadonlySet<string>) => dirs.has(file.lastIndexOf('/') < 0 ? '' : file.slice(0, file.lastIndexOf('/')));

/**
 * A set result less what the module follow replaces: the readings of a module's own folder
 * (its pools are counted through the call instead), and the "not followed" notes and warnings of
 * the calls that were followed. The Terraform parser's reading of a root read with its variable
 * files (`terraform`) goes too: each application of the root is counted instead.
 */
export function withoutFollowed<T extends SetParseResult & Coverage>(result: T, followed: FollowedModules, terraform = false): T {
  const dirs = new Set([...followed.modules, ...(terraform ? followed.roots : [])]);
  const calls = new Set(followed.calls.map((c) => `${c.file}\u0000${c.subject}`));
  // A call's notes are also on the values files of its folder (terraform/call-notes.ts).
  const callsByDir = new Set(followed.calls.map((c) => `${dirOf(c.file)}\u0000${c.subject}`));
  const warnedCall = (file: string, message: string) =>
    [...calls].some((key) => key.startsWith(`${file}\u0000`) && message.startsWith(`${key.slice(file.length + 1)} (source `));
  return {
    ...result,
    decls: result.decls.filter((d) => !inside(d.file, dirs)),
    unresolved: (result.unresolved ?? []).filter((u) => !inside(u.file, dirs)),
    diagnostics: result.diagnostics.filter((d) => !inside(d.file, dirs) && !warnedCall(d.file, d.message)),
    notFollowed: (result.notFollowed ?? []).filter(
      (n) =>
        !inside(n.file, dirs) &&
        !((n.reason === 'local-module' || n.reason === 'remote-module') && callsByDir.has(`${dirOf(n.file)}\u0000${n.subject}`)),
    ),
  };
}
