import { syntaxOf } from '../kit/signal-scan/syntax.js';
import type { AccountedLines, Accounting, CapacityParser, Coverage, SetParseResult, SourceFile, Unfollowed } from '../parser.js';
import { poolCommands } from './pool-commands.js';
import type { PoolClass, PoolCommand } from './pool-commands.js';
import { logicalCommands, sourcedFiles } from './shell-text.js';
import { variablesOf } from './variables.js';

// A cloud CLI named before a word of its pool or scaling commands, on one line: most texts have none.
const HINT = /\b(?:gcloud|az|eksctl|aws|kubectl)\b[^\n]*\b(?:container|aks|create|scale|eks|autoscaling|patch)\b/;
const SCRIPT = /\.(?:sh|bash|zsh|ksh|ps1|psm1|rc|env|envrc|mk)$|(?:^|\/)(?:GNUmakefile|[Mm]akefile|\.env[\w.-]*|\.envrc)$/;
// Where such commands are written: scripts and Makefiles, CI workflows and Ansible tasks (YAML),
// Justfiles. Other paths are never fetched for this reader (a model's weights, say).
const WRITTEN_IN = (path: string): boolean => SCRIPT.test(path) || /(?:^|\/)\.?[Jj]ustfile$/.test(path) || syntaxOf(path).kind === 'yaml';
const isMake = (path: string) => /(?:^|\/)(?:GNUmakefile|[Mm]akefile)$|\.mk$/.test(path);

/**
 * Node pools made or sized by the clouds' CLIs in scripts, Makefiles, CI workflows and Ansible
 * tasks (`gcloud container node-pools create`, `az aks nodepool add`, `eksctl create nodegroup`,
 * `aws eks create-nodegroup`, `kubectl patch clusterqueue`, …). They are not counted: a command
 * sizes what exists when it runs, zones and defaults included. A command whose machines have GPUs,
 * or cannot be told from the files here (a type from a variable set elsewhere, a resize of a pool
 * made elsewhere), is `not-followed` when its text, with the variables the script and the files
 * it sources set put in, is not the same at both sides; one whose machines have no GPU (a
 * CPU type, or the CLI's default) is no capacity. Its lines, and those of the variables it reads,
 * are accounted for: a GPU name in a command that stands as it was changes nothing.
 */
export const cliScriptParser: CapacityParser = {
  id: 'cli-scripts',
  acceptsPath: WRITTEN_IN,
  mightContain: (_path, text) => HINT.test(text),
  parse: (path, text) => readScripts([{ path, text }]),
  parseSet: (files) => readScripts(files),
  // The scripts beside a changed file may source it (`source env.rc`): they are read with it.
  acceptsSibling: (path) => SCRIPT.test(path),
  references: (file) => sourcedFiles(file.path, lfText(file.text)),
};

/**
 * The text with CRLF line ends as LF: a script checked out on Windows, or saved so, holds the same
 * commands, and a `\r` left at the end of a value or a sourced path would make an unchanged
 * command differ from its base (the line count, and so every line named, stays the same).
 */
const lfText = (text: string): string => text.replace(/\r\n/g, '\n');

function readScripts(given: readonly SourceFile[]): SetParseResult & Coverage & Accounting {
  const files = given.map((f) => ({ ...f, text: lfText(f.text) }));
  const byPath = new Map(files.map((f) => [f.path, f]));
  const notFollowed: Unfollowed[] = [];
  const accounted: AccountedLines[] = [];
  const read = files.map((f) => {
    const sourced = sourcedFiles(f.path, f.text).flatMap((p) => {
      const s = byPath.get(p);
      return s === undefined ? [] : [s];
    });
    const vars = variablesOf([...sourced, f]);
    return { file: f, vars, commands: HINT.test(f.text) ? poolCommands(logicalCommands(f.text), vars, isMake(f.path)) : [] };
  });
  // What each pool is at its create, to tell what a resize of it sizes.
  const made = new Map<string, PoolClass>();
  for (const r of read) for (const c of r.commands) if (c.key !== null && c.own !== 'lookup') made.set(c.key, c.own);
  for (const { file, vars, commands } of read) {
    for (const c of commands) {
      accounted.push({ file: file.path, from: c.from, to: c.to });
      const cls = c.own === 'lookup' ? ((c.key === null ? undefined : made.get(c.key)) ?? 'unknown') : c.own;
      const note = {
        reason: 'cli-command' as const,
        subject: c.subject,
        ...(c.unresolved.length > 0 ? { inputs: c.unresolved } : {}),
        needs: cls === 'gpu' ? 'its machines have GPUs' : 'what machines it sizes cannot be told from the repository',
        fingerprint: c.resolved,
      };
      if (cls !== 'cpu') notFollowed.push({ file: file.path, line: c.from, ...note });
      // A variable it reads from a sourced file is read there too: a change to the file that
      // changes the command is not followed on that file, one that leaves it as it was is read.
      const sources = new Set<string>();
      for (const name of usedNames(c)) {
        const v = vars.get(name);
        if (v === undefined || v === null) continue;
        accounted.push({ file: v.file, from: v.line, to: v.line });
        if (v.file !== file.path) sources.add(v.file);
      }
      if (cls !== 'cpu') for (const f of sources) notFollowed.push({ file: f, line: null, ...note });
    }
  }
  return { decls: [], diagnostics: [], notFollowed, accounted };
}

/** The variables a command reads, as written (`$X`, `${X}`, `$(X)`, `${{ env.X }}`, `{{ x }}`). */
function usedNames(c: PoolCommand): string[] {
  return [...c.written.matchAll(/\$\{\{\s*(?:env|vars)\.(\w+)|\{\{\s*(\w+)\s*\}\}|\$\{?\(?(?:env:)?([A-Za-z_]\w*)/g)].flatMap((m) => {
    const n = m[1] ?? m[2] ?? m[3];
    return n === undefined ? [] : [n];
  });
}
