import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MAX_FILE_CHARS } from '../../domain/limits.js';
import { draftCatalog } from '../../report/draft-catalog.js';
import { parseCatalog } from '../../workloads/catalog.js';
import { draftEntries } from '../../workloads/draft-entries.js';
import { declaredWorkloads } from '../../workloads/manifests/read-workloads.js';
import { UsageError, parseFlags } from '../args.js';
import type { Output } from '../output.js';
import { DirReader } from '../tree-readers/dir-reader.js';

export const INIT_HELP = `Usage: gpu-justify init [--dir <repo dir>] [--out <file>] [--force]

Writes a draft workload catalog from the GPU workloads the repository's own manifests declare
(CronJob, Job, JobSet, RayJob, RayCluster, PyTorchJob, TrainJob, LeaderWorkerSet, Deployment,
StatefulSet, KServe InferenceService, KAITO Workspace): GPUs per pod and pods, schedules, the
ClusterQueue a Kueue queue-name label leads to, the pool a node selector pins. Every value is
commented with the file and line it came from; what only your team knows (runtimes, deadlines,
SLOs, outcome queries) is left "unknown" or commented out and marked TO CONFIRM. The draft is valid
against the catalog schema; an entry with an "unknown" stays out of the need until it is written.

Options:
  --dir <repo dir>   the repository to read (default: the current directory)
  --out <file>       where to write the draft (default: print it); an existing file is kept unless --force
  --force            overwrite --out if it exists

Exit codes: 0 written, 2 bad usage or unreadable input.

Example: gpu-justify init --out gpu-workloads.yaml`;

export async function initCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    dir: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
  });
  const dir = flags.dir ?? '.';
  if (!existsSync(dir)) throw new UsageError(`--dir ${dir}: no such directory`);
  if (flags.out !== undefined && existsSync(flags.out) && flags.force !== true) {
    throw new UsageError(`${flags.out} exists; pass --force to overwrite it, or --out another file`);
  }
  const reader = new DirReader(dir);
  const files: { path: string; text: string }[] = [];
  for (const file of await reader.listFiles()) {
    if (!/\.ya?ml$/i.test(file)) continue;
    const text = await reader.read(file);
    if (text !== null && text.length <= MAX_FILE_CHARS) files.push({ path: file, text });
  }
  const { workloads, diagnostics } = declaredWorkloads(files);
  const draft = draftCatalog(draftEntries(workloads, new Date()), {
    written: new Date().toISOString().slice(0, 10),
    from: dir === '.' ? 'this repository' : path.basename(path.resolve(dir)),
  });
  // The draft must be a catalog the review accepts: anything else is a bug here, not the user's.
  const check = parseCatalog(flags.out ?? 'gpu-workloads.yaml', draft);
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  if (check.unreadable !== null || errors.length > 0) {
    throw new Error(`the draft is not a valid catalog: ${(check.unreadable ?? errors[0])?.message ?? 'unreadable'}`);
  }
  for (const d of diagnostics) out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
  if (flags.out === undefined) {
    out.stdout(draft);
    return 0;
  }
  await writeFile(flags.out, draft);
  out.stderr(
    `wrote ${flags.out}: ${workloads.length} GPU workload${workloads.length === 1 ? '' : 's'}, ${check.rejected.length} to confirm`,
  );
  return 0;
}
