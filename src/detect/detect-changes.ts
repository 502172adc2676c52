import { MAX_FILE_CHARS, diagnostic } from '../domain/index.js';
import { mapLimit } from '../util/map-limit.js';
import type { CapacityChange, CapacityDecl, ChangeSet, Diagnostic, FileCoverage, TreeReader } from '../domain/index.js';
import { renderCharts } from './helm/chart-render.js';
import { keepUnrendered } from './helm/unrendered-objects.js';
import { followModules } from './terraform/follow-modules.js';
import { followTemplates } from './terraform/template-follow.js';
import { followTerragrunt, withoutUnits } from './terraform/terragrunt-include.js';
import { withoutFollowed } from './followed.js';
import { followToolkitDeployments } from './cluster-toolkit/toolkit-deployment.js';
import { followFluxVariables } from './flux-variables.js';
import { followFluxComponents } from './flux-components.js';
import { followArgoApplied } from './argo-applied.js';
import { fluxSubstituted, substitutedAtBothSides } from './flux-manifests.js';
import { compareSides } from './compare.js';
import { contextOf, ownPart, withContext } from './context-objects.js';
import type { ContextIo } from './context-objects.js';
import { fileCoverage } from './coverage.js';
import { floorOf } from './floor.js';
import { anyParserAccepts, detectFile, mayBeApplied } from './detect-file.js';
import { fillModelsFromDirectory } from './kueue/flavor-lookup.js';
import { followFlavorChanges } from './kueue/flavor-follow.js';
import { byPosition } from './match-decls.js';
import { combine, merge } from './merge-results.js';
import type { CapacityParser, Coverage, ParseResult, SetParseResult, SourceFile } from './parser.js';
import { PARSERS } from './registry.js';
import { oversize, readReferences } from './referenced-files.js';
import { withSaneCounts } from './sane-counts.js';
import { linkSideSharing } from './gpu-sharing/sharing-scan.js';
import { readers } from './side-readers.js';
import type { Sides } from './side-readers.js';
import { setPaths, takesSibling } from './siblings.js';
import { keepUnparsed, unknownAfter, unknownBefore } from './side-guards.js';
import { dirOf } from './kit/paths.js';
import { isTfFile } from './terraform/tf-json.js';
import { overrideFileErrors } from './terraform/override-files.js';
import { readBothWays } from './tofu-readings.js';
import { foldersReadingData } from './terraform/data-file-readers.js';

export interface DetectedChanges {
  changes: CapacityChange[];
  diagnostics: Diagnostic[];
  /** Each changed path: read, ruled out, or not followed (and why). */
  coverage: FileCoverage[];
  /** Every declaration the changed files hold at each side, changed or not (a cohort's other queues among them). */
  declarations: { base: CapacityDecl[]; head: CapacityDecl[] };
}

// Readers may be API-backed: a few reads in flight, not one per changed file at once.
const READ_CONCURRENCY = 8;

export { MAX_FILE_CHARS };

/**
 * Reads each changed path at base and head (through the ports, so this stays free of I/O
 * of its own), detects capacity on both sides and compares them over all files together,
 * so a queue moved from one file to another is one change, not a removal and an addition.
 *
 * Only head-side diagnostics are returned: they describe the code the PR proposes. Base-side
 * problems were there before the PR and would be noise on it, except for one consequence
 * that is the PR's business: when a declaration's count is unreadable at base but readable
 * at head, the size of the change is unknown, and a warning says so.
 * Reader failures (network, permissions) are not diagnostics; they propagate to the caller.
 */
export async function detectChanges(changes: ChangeSet, parsers: readonly CapacityParser[] = PARSERS): Promise<DetectedChanges> {
  // A folder holding `x.tofu` beside `x.tf` is read as OpenTofu and as Terraform read it (tofu-readings.ts).
  return readBothWays(changes, (reading, errors) => detectReading(reading, parsers, errors));
}

/** One reading of the pull request; `errors` are added to the head's (a folder whose readings differ). */
async function detectReading(
  changes: ChangeSet,
  parsers: readonly CapacityParser[],
  errors: readonly Diagnostic[],
): Promise<DetectedChanges> {
  const changed = new Set(await changes.changedPaths());
  const paths = [...changed].filter((p) => anyParserAccepts(p, parsers)).sort();
  const fileParsers = parsers.filter((p) => !p.parseSet);
  const setParsers = parsers.filter((p) => p.parseSet !== undefined);
  const sides = readers(changes, changed);
  const parsed = new Set<string>();
  const near = (reader: TreeReader) => ({
    read: (p: string) => reader.read(p),
    list: sides.list,
    ...(sides.dirs ? { dirs: sides.dirs } : {}),
  });
  const perFile = await mapLimit(paths, READ_CONCURRENCY, async (path) => ({
    base: await detectSide(sides.base, path, fileParsers, parsed, near(sides.base)),
    head: await detectSide(sides.head, path, fileParsers, parsed, near(sides.head)),
  }));
  const perSet: { base: SetParseResult & Coverage; head: SetParseResult & Coverage }[] = [];
  // The Terraform parser's readings: a root read with its variable files replaces them.
  const terraformSets = new Set<object>();
  const dataFiles: string[] = [];
  for (const parser of setParsers) {
    // Folders whose configuration reads a changed data file (`yamldecode(file(…))`) are read as if changed.
    const readingData = await foldersReadingData([...changed].sort(), parser, sides);
    const dirs = [...new Set([...paths.filter((p) => parser.acceptsPath?.(p) ?? true).map(dirOf), ...readingData.keys()])].sort();
    const read = await mapLimit(dirs, READ_CONCURRENCY, async (dir) => {
      const found = await setPaths(sides, dir, paths, parser, parsers);
      const { notes } = found;
      const set =
        found.set.length > 0 || !readingData.has(dir)
          ? found.set
          : (await sides.list(dir)).filter((p) => dirOf(p) === dir && takesSibling(parser, p));
      // Read whole by the configuration that decodes it: its GPU names are what the pools evaluate.
      for (const data of set.length > 0 ? (readingData.get(dir) ?? []) : []) {
        parsed.add(data);
        dataFiles.push(data);
      }
      const head = await detectDirectory(sides.head, sides.mayExist, dir, set, parser, parsed, changed);
      return {
        base: await detectDirectory(sides.base, sides.mayExist, dir, set, parser, parsed, changed),
        head: { ...head, diagnostics: [...head.diagnostics, ...notes] },
      };
    });
    if (parser.id === 'terraform') read.forEach((r) => terraformSets.add(r));
    perSet.push(...read);
  }
  const io = { base: sides.base, head: sides.head, list: (dir: string) => sides.list(dir) };
  // Charts are rendered from their values: what a values file changes shows in the templates.
  // A render the head cannot make keeps the base's objects as unknown, never removed.
  const charts = keepUnrendered(
    await renderCharts(
      [...changed].sort(),
      { ...io, ...(sides.dirs ? { dirs: sides.dirs } : {}), ...(changes.repositories ? { repositories: changes.repositories } : {}) },
      parsers,
    ),
  );
  for (const path of charts.followed) parsed.add(path);
  perSet.push({ base: charts.base, head: charts.head });
  // Modules of this repository (by path, or by its own URL) read through their calls, and variable files with the module they set.
  const modules = await followModules(
    [...changed].sort(),
    {
      ...io,
      ...(sides.dirs ? { dirs: sides.dirs } : {}),
      ...(changes.repositories ? { repositories: changes.repositories } : {}),
      manifests: parsers.find((p) => p.id === 'terraform-manifests'),
    },
    unknownModules(perSet, changed),
  );
  for (const path of modules.tfvars) parsed.add(path);
  for (const s of perSet) {
    s.base = withoutFollowed(s.base, modules, terraformSets.has(s));
    s.head = withoutFollowed(s.head, modules, terraformSets.has(s));
  }
  perSet.push({ base: modules.base, head: modules.head });
  // Templates read through the Terraform that renders them.
  const templates = await followTemplates(
    [...changed].sort(),
    io,
    parsers.find((p) => p.id === 'terraform-manifests'),
    modules.modules,
  );
  for (const path of templates.followed) parsed.add(path);
  perSet.push({ base: templates.base, head: templates.head });
  // Terragrunt units read with the files they include, and changed parents into their units.
  const terragrunt = await followTerragrunt([...changed].sort(), {
    ...io,
    ...(sides.dirs ? { dirs: sides.dirs } : {}),
    ...(changes.repositories ? { repositories: changes.repositories } : {}),
  });
  for (const s of perSet) {
    s.base = withoutUnits(s.base, terragrunt);
    s.head = withoutUnits(s.head, terragrunt);
  }
  for (const path of [...terragrunt.followed, ...terragrunt.units.filter((u) => changed.has(u))]) parsed.add(path);
  perSet.push({ base: terragrunt.base, head: terragrunt.head });
  // Cluster Toolkit deployment files, read with their blueprint.
  const deployments = await followToolkitDeployments([...changed].sort(), io);
  for (const path of deployments.followed) parsed.add(path);
  perSet.push({ base: deployments.base, head: deployments.head });
  // Flux post-build variables, read into the manifests that use them.
  const flux = await followFluxVariables(
    [...changed].sort(),
    { ...io, ...(sides.dirs ? { dirs: sides.dirs } : {}) },
    fileParsers,
    substitutedAtBothSides,
  );
  perSet.push({ base: flux.base, head: flux.head });
  perSet.push(await followFluxComponents([...changed].sort(), { ...io, ...(sides.dirs ? { dirs: sides.dirs } : {}) }, fileParsers));
  // What Argo CD Applications apply from folders here, where an Application's source changed.
  const argo = await followArgoApplied(
    [...changed].sort(),
    { ...io, ...(sides.dirs ? { dirs: sides.dirs } : {}), ...(changes.repositories ? { repositories: changes.repositories } : {}) },
    parsers,
  );
  for (const path of argo.followed) parsed.add(path);
  perSet.push({ base: argo.base, head: argo.head });
  // ResourceFlavors changed apart from their queues, followed to the queues that name them.
  const flavors = await followFlavorChanges([...changed].sort(), { ...io, ...(sides.dirs ? { dirs: sides.dirs } : {}) });
  perSet.push({ base: flavors.base, head: flavors.head });
  // Paths there at head that are no file (a submodule, a link leading outside): an error on each,
  // so what their base declared is kept as unknown, never read as removed.
  const notFiles = await sides.notFiles([...changed].sort());
  perSet.push({ base: EMPTY, head: { ...EMPTY, diagnostics: notFiles } });
  // Whatever format a count came from, an absurd or overflowing one makes the change unreadable.
  const base = withSaneCounts(
    combine(
      perFile.map((s) => s.base),
      perSet.map((s) => s.base),
    ),
  );
  const head = keepUnparsed(
    base,
    withSaneCounts(
      combine(
        perFile.map((s) => s.head),
        perSet.map((s) => s.head),
      ),
    ),
  );
  await fillModelsFromDirectory(base.decls, { list: sides.list, read: (p) => sides.base.read(p) });
  await fillModelsFromDirectory(head.decls, { list: sides.list, read: (p) => sides.head.read(p) });
  // Shared GPUs: a pool's count becomes physical GPUs where its sharing config is in view.
  const changedPaths = [...changed].sort();
  const dirs = sides.dirs ? { dirs: sides.dirs } : {};
  await linkSideSharing(base.decls, changedPaths, { list: sides.list, ...dirs, read: (p) => sides.base.read(p) });
  const sharingNotes = await linkSideSharing(head.decls, changedPaths, { list: sides.list, ...dirs, read: (p) => sides.head.read(p) });

  // Every changed text file, whatever its format: a GPU name nothing accounts for is not followed.
  const followed = [
    ...modules.tfvars,
    ...deployments.followed,
    ...terragrunt.followed,
    ...flux.followed,
    ...flavors.followed,
    ...dataFiles,
  ];
  const floor = await floorOf({
    changed: changedPaths,
    base,
    head,
    followed: new Set([...followed, ...charts.followed]),
    tfvarsModules: modules.tfvarsModules,
    terragruntParents: terragrunt.parents,
    sides,
    ...(changes.repositories ? { repositories: changes.repositories } : {}),
  });
  floor.notFollowed.push(...flux.notFollowed, ...flavors.notFollowed);
  // Reads made since (a pool's flavors, its sharing config, the floor's scan of a file only it
  // reads) may have met such paths too, or a changed file over the size limit: each an error.
  const lateNotFiles = await sides.notFiles([]);
  head.diagnostics.push(
    ...lateNotFiles,
    ...(await floorOnlyOversize(changedPaths, sides.head, parsers)),
    ...(await overrideFileErrors(changedPaths, io)),
    ...errors,
  );
  // A changed file too large to read is reported by each reader that takes it: once is enough.
  const diagnostics = uniqueDiagnostics([...head.diagnostics, ...sharingNotes, ...unknownBefore(base, head), ...unknownAfter(base, head)]);
  diagnostics.sort((a, b) =>
    byPosition({ file: a.file, line: a.line ?? 0, name: a.message }, { file: b.file, line: b.line ?? 0, name: b.message }),
  );
  const coverage = await fileCoverage(
    { changed: [...changed], parsed, base, head, followed: [...followed, ...charts.followed], floor },
    io,
  );
  return { changes: compareSides(base, head), diagnostics, coverage, declarations: { base: base.decls, head: head.decls } };
}

const EMPTY: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };

/** Folders of changed Terraform files whose own reading leaves a pool's count unknown at either side. */
function unknownModules(perSet: readonly { base: SetParseResult; head: SetParseResult }[], changed: ReadonlySet<string>): string[] {
  const dirs = new Set<string>();
  for (const s of perSet)
    for (const u of [...(s.base.unresolved ?? []), ...(s.head.unresolved ?? [])])
      if (u.unboundedBy === undefined && changed.has(u.file) && isTfFile(u.file)) dirs.add(dirOf(u.file));
  return [...dirs].sort();
}

/**
 * A changed file only the floor reads (a Pulumi program, a Jsonnet file) is held to the limit the
 * parsers' files are: over it at head, an error on the file, as the App, which does not download
 * it, reports it. So the CLI and the App answer the same, and neither judges it by a part.
 */
async function floorOnlyOversize(changed: readonly string[], head: TreeReader, parsers: readonly CapacityParser[]): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const path of changed.filter((p) => mayBeApplied(p) && !anyParserAccepts(p, parsers))) {
    const text = await head.read(path);
    if (text !== null && text.length > MAX_FILE_CHARS) out.push(...oversize(path, text, parsers, true).diagnostics);
  }
  return out;
}

function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.file, d.line, d.severity, d.message]);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

async function detectSide(
  reader: TreeReader,
  path: string,
  parsers: readonly CapacityParser[],
  parsed: Set<string>,
  near: ContextIo,
): Promise<ParseResult> {
  if (!parsers.some((p) => p.acceptsPath?.(path) ?? true)) return EMPTY;
  const raw = await reader.read(path);
  if (raw === null) return EMPTY;
  if (raw.length > MAX_FILE_CHARS) {
    parsed.add(path);
    return oversize(path, raw, parsers, true);
  }
  // A manifest Flux applies with post-build variables is read as Flux substitutes it, where that is certain.
  const text = (await fluxSubstituted(path, raw, near)) ?? raw;
  const mine = parsers.some((p) => p.mightContain(path, text));
  if (mine) parsed.add(path);
  // Objects it names that sit in files beside it (a scaler's MachineSet, a MachineDeployment's
  // template) are read with it; what it reports is still its own.
  const context = mine ? await contextOf(path, text, near) : [];
  if (context.length === 0) return detectFile(path, text, parsers);
  return ownPart(detectFile(path, withContext(text, context), parsers), text);
}

/**
 * A format whose files depend on their siblings (Terraform modules) reads the changed files of
 * a directory together with the directory's other files (`paths`, from `setPaths`).
 */
async function detectDirectory(
  reader: TreeReader,
  mayExist: Sides['mayExist'],
  dir: string,
  paths: readonly string[],
  parser: CapacityParser,
  parsed: Set<string>,
  changed: ReadonlySet<string>,
): Promise<SetParseResult & Coverage> {
  const files: SourceFile[] = [];
  const tooLarge: ParseResult[] = [];
  for (const path of paths) {
    const text = await reader.read(path);
    if (text === null) continue;
    if (text.length > MAX_FILE_CHARS) tooLarge.push(oversize(path, text, [parser], changed.has(path)));
    else files.push({ path, text });
  }
  if (parser.references) await readReferences(reader, mayExist, parser, files, tooLarge);
  if (!files.some((f) => parser.mightContain(f.path, f.text))) return merge(tooLarge);
  for (const f of files) if (parser.acceptsPath?.(f.path) ?? true) parsed.add(f.path);
  try {
    const result = (parser.parseSet as (f: readonly SourceFile[]) => SetParseResult & Coverage)(files);
    return { ...merge([...tooLarge, result]), supersedes: result.supersedes ?? [], replaces: result.replaces ?? [] };
  } catch (err) {
    // Parsers must not throw; one that does must not take the other formats down with it.
    const message = err instanceof Error ? err.message : String(err);
    return {
      decls: [],
      diagnostics: [diagnostic(files[0]?.path ?? dir, null, 'error', `${parser.id} parser failed: ${message}`)],
      unresolved: [],
    };
  }
}
