import { detectChanges } from '../../detect/index.js';
import { changeJson, coverageJson, modelSuffix, sharingSuffix } from '../../report/index.js';
import { parseFlags, required } from '../args.js';
import { visible } from '../../domain/visible.js';
import { jsonOutput } from '../output.js';
import type { Output } from '../output.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';

export const DETECT_HELP = `Usage: gpu-justify detect --base <dir|ref> --head <dir|ref> [--repo <git dir>] [--json]

Lists the GPU capacity the change adds or removes: Kueue ClusterQueue quotas, Karpenter, eksctl,
Cluster API, Terraform GKE/EKS/AKS node pools, GPU sharing configs.

Options:
  --base <dir|ref>   the repository before the change: a directory, or a git ref of --repo
  --head <dir|ref>   the repository after the change: a directory, or a git ref of --repo
  --repo <git dir>   the git repository the refs name (default: the current directory)
  --json             print {"changes": [...], "diagnostics": [...], "coverage": [...]} instead of one line per change

Values that cannot be resolved (a Terraform variable without a default, say) are reported on stderr
with the file and line. Exit codes: 0 ran, 2 bad usage or unreadable input.

Example: gpu-justify detect --base origin/main --head HEAD --json`;

export async function detectCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    json: { type: 'boolean' },
  });
  const changes = await changeSetFromArgs({
    base: required(flags.base, '--base'),
    head: required(flags.head, '--head'),
    ...(flags.repo === undefined ? {} : { repo: flags.repo }),
  });
  const result = await detectChanges(changes);
  if (flags.json) {
    const json = { changes: result.changes.map(changeJson), diagnostics: result.diagnostics, coverage: coverageJson(result.coverage) };
    out.stdout(jsonOutput(json));
    return 0;
  }
  const notFollowed = coverageJson(result.coverage).flatMap((c) => (c.notFollowed ?? []).map((n) => ({ file: c.file, ...n })));
  if (result.changes.length === 0 && notFollowed.length === 0) out.stdout('No GPU capacity change.');
  // Files and names are the PR's: what they hold invisibly (a bidi control) is written out.
  for (const c of result.changes) {
    const delta = c.delta > 0 ? `+${c.delta}` : String(c.delta);
    out.stdout(
      visible(
        `${c.file}:${c.line}  ${c.kind} ${c.name}: ${c.gpusBefore} → ${c.gpusAfter} GPUs (${delta})${modelSuffix(c)}${sharingSuffix(c)}`,
      ),
    );
  }
  // Not a change, but not "no change" either: what could not be followed is part of the answer.
  for (const n of notFollowed) out.stdout(visible(`${n.file}${n.line === null ? '' : `:${n.line}`}  not followed: ${n.message}`));
  for (const d of result.diagnostics) {
    out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
  }
  return 0;
}
