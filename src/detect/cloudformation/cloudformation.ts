import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';
import { lineCount } from '../kit/lines.js';
import { dirOf } from '../kit/paths.js';
import { accountedOf } from '../parser.js';
import type { AccountedLines, Accounting, CapacityParser, ParseOutcome, SetParseResult, SourceFile, Unfollowed } from '../parser.js';
import { cfnParameters, isNamedParamFile, pairedPaths } from './parameters.js';

// A self-managed node group is an EKS node group, as the Terraform module's are.
const KIND = 'eks-node-group' as const;
const MARKERS = /AWS::AutoScaling::AutoScalingGroup/;
const ASG = 'AWS::AutoScaling::AutoScalingGroup';

type Resolved = { value: unknown } | { unknown: string };

/**
 * Self-managed EKS node groups in CloudFormation (AWS's amazon-eks-nodegroup template and its
 * kin): an AutoScalingGroup's `MaxSize` × the GPUs of the instance type its launch template
 * (or launch configuration, or mixed-instances overrides) names. `!Ref` and `{ Ref: … }` to a
 * parameter take its `Default`; other intrinsic functions are not evaluated, and a value that
 * needs one is a warning at its line.
 */
const single = yamlParser('cloudformation', MARKERS, (path, text) => readTemplate(path, text, new Map()));

/**
 * The same, with the parameter file a template is deployed with (`aws cloudformation create-stack
 * --parameters file://x-parameters.json`), paired with it by name (`x.yml` with `x-parameters.json`,
 * `x-params.json`, `x.parameters.json`): its values take the place of the Defaults, as
 * CloudFormation takes them. A value the file keeps from the deployed stack (`UsePreviousValue`)
 * is unknown.
 */
export const cloudFormationParser: CapacityParser = {
  ...single,
  mightContain: (path, text) => single.mightContain(path, text) || cfnParameters(path, text) !== null,
  parseSet: readSet,
  // Parameter files beside a template: one whose own template is gone (renamed) is paired by what it sets.
  acceptsSibling: isNamedParamFile,
  references: (file) =>
    cfnParameters(file.path, file.text) !== null || single.mightContain(file.path, file.text) ? pairedPaths(file.path) : [],
};

function readSet(files: readonly SourceFile[]): SetParseResult & Accounting {
  const params = new Map<string, ReadonlyMap<string, string | null>>();
  for (const f of files) {
    const given = cfnParameters(f.path, f.text);
    if (given !== null) params.set(f.path, given);
  }
  const out: Required<Pick<SetParseResult, 'decls' | 'diagnostics' | 'unresolved'>> & {
    accounted: AccountedLines[];
    notFollowed: Unfollowed[];
  } = {
    decls: [],
    diagnostics: [],
    unresolved: [],
    accounted: [],
    notFollowed: [],
  };
  for (const f of files) {
    if (params.has(f.path) || !single.mightContain(f.path, f.text)) continue;
    const byName = pairedPaths(f.path).filter((p) => params.has(p));
    const paired = byName.length > 0 ? byName : pairedByContent(f, files, params);
    // Two parameter files that set one parameter apart: which one is deployed is not in the files.
    const given = new Map<string, string | null>();
    for (const p of paired) for (const [k, v] of params.get(p) ?? []) given.set(k, given.has(k) && given.get(k) !== v ? null : v);
    let r: ParseOutcome & Accounting;
    try {
      const overridden: AccountedLines[] = [];
      r = readTemplate(f.path, f.text, given, overridden);
      out.accounted.push(...overridden);
    } catch (err) {
      out.diagnostics.push(
        diagnostic(f.path, null, 'error', `cloudformation parser failed: ${err instanceof Error ? err.message : String(err)}`),
      );
      continue;
    }
    out.decls.push(...r.decls);
    out.diagnostics.push(...r.diagnostics);
    out.unresolved.push(...(r.unresolved ?? []));
    out.notFollowed.push(...(r.notFollowed ?? []));
    out.accounted.push(...accountedOf(r));
    for (const p of paired) {
      out.accounted.push({ file: p, from: 1, to: lineCount(files.find((x) => x.path === p)?.text ?? '') });
      // A group whose count the file leaves unknown is not followed on the file, by the values it gives.
      const fingerprint = JSON.stringify([...(params.get(p) ?? [])]);
      for (const u of r.unresolved ?? [])
        out.notFollowed.push({ file: p, line: null, reason: 'count-unknown', subject: u.name, fingerprint });
    }
  }
  return out;
}

/**
 * The parameter files beside a template that none pairs by name: those whose own template by name
 * is not here (renamed, or named for no template) and most of whose keys the template declares.
 * CloudFormation deploys a template with whichever file the command names; a Default such a file
 * may override is not taken as what is deployed.
 */
function pairedByContent(
  template: SourceFile,
  files: readonly SourceFile[],
  params: ReadonlyMap<string, ReadonlyMap<string, string | null>>,
): string[] {
  const present = new Set(files.map((f) => f.path));
  const declared = declaredParameters(template.text);
  if (declared.size === 0) return [];
  return [...params]
    .filter(([p, given]) => {
      if (dirOf(p) !== dirOf(template.path) || pairedPaths(p).some((t) => present.has(t))) return false;
      const keys = [...given.keys()];
      return keys.length > 0 && keys.filter((k) => declared.has(k)).length * 2 >= keys.length;
    })
    .map(([p]) => p);
}

/** The names under a template's `Parameters`. */
function declaredParameters(text: string): Set<string> {
  const doc = parseDocument(text, { uniqueKeys: false });
  const params = mapGet(doc.contents, 'Parameters');
  const out = new Set<string>();
  if (isMap(params)) for (const item of params.items) if (isScalar(item.key)) out.add(String(item.key.value));
  return out;
}

/**
 * One template, `given` taking the place of its parameters' Defaults. The lines of a parameter the
 * file gives a value for go to `overridden`: its Default is not what is deployed.
 */
function readTemplate(
  path: string,
  text: string,
  given: ReadonlyMap<string, string | null>,
  overridden: AccountedLines[] = [],
): ParseOutcome & Accounting {
  const found = new Findings(path);
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false });
  const error = doc.errors[0];
  if (error !== undefined) {
    found.note(
      lc.linePos(error.pos[0]).line,
      'warning',
      `this CloudFormation template is not valid YAML (${error.message.split('\n')[0]}): its Auto Scaling groups are not read`,
    );
    return found.result(text);
  }
  const root = doc.contents;
  const params = mapGet(root, 'Parameters');
  const resources = mapGet(root, 'Resources');
  if (!isMap(resources)) return found.result(text);
  const resolve = (node: unknown): Resolved => {
    const ref = refName(node);
    if (ref !== null && given.has(ref)) {
      const v = given.get(ref);
      const entry = (params as { items?: { key: unknown; value: unknown }[] } | undefined)?.items?.find(
        (i) => isScalar(i.key) && i.key.value === ref,
      );
      const [from, to] = [nodeLine(entry?.key, lc), nodeEnd(entry?.value, lc)];
      if (v !== null && v !== undefined && from !== null && to !== null) overridden.push({ file: path, from, to });
      return v === null || v === undefined
        ? { unknown: `comes from parameter ${ref}, which its parameter file keeps from the deployed stack or sets twice` }
        : { value: v };
    }
    if (ref !== null) {
      const param = mapGet(params, ref);
      if (param === undefined) return { unknown: `refers to ${ref}, which is not a parameter of this template` };
      const def = mapGet(param, 'Default');
      return def === undefined || def === null
        ? { unknown: `comes from parameter ${ref}, which has no Default (its value is given at deploy time)` }
        : resolve(def);
    }
    if (isScalar(node) && (node.tag === undefined || !node.tag.startsWith('!'))) return { value: node.value };
    // `!Sub …`, `!If […]`, or the long form `{ Fn::FindInMap: … }`.
    const longForm = isMap(node) && isScalar(node.items[0]?.key) ? String(node.items[0].key.value) : '';
    const fn = isScalar(node) || isSeq(node) || isMap(node) ? (node.tag ?? longForm) : '';
    return { unknown: `uses ${fn || 'an expression'}, which this tool does not evaluate` };
  };
  const resource = (name: string | null): unknown => (name === null ? undefined : mapGet(resources, name));

  for (const pair of resources.items) {
    const id = isScalar(pair.key) ? String(pair.key.value) : null;
    const res = pair.value;
    if (id === null || scalarType(res) !== ASG) continue;
    const props = mapGet(res, 'Properties');
    const types = instanceTypes(props, resource, resolve, (node) => nodeLine(node, lc) ?? nodeLine(res, lc) ?? 1);
    if (types === null) continue;
    const named = resolve(mapGet(props, 'AutoScalingGroupName'));
    const name = 'value' in named && typeof named.value === 'string' && named.value !== '' ? named.value : id;
    const where = `${ASG} ${id}`;
    if ('unknown' in types) {
      // Only a group that looks like GPUs is worth a word: most groups in such templates are not.
      if (/gpu|\b[pg][3-9][a-z]*\./i.test(text) || given.size > 0) {
        found.note(types.line, 'warning', `${where}: its instance type ${types.unknown}; its GPUs are not counted`);
        // Kept, count unknown: the group still exists, it is not removed.
        found.unknown(KIND, name, types.line);
      }
      continue;
    }
    const rows = types.values.map((t) => ({ t, row: lookupInstanceType(t) }));
    const gpuRows = rows.flatMap((r) => (r.row ? [r.row] : []));
    if (gpuRows.length === 0) {
      const odd = rows.find((r) => looksLikeGpuType(r.t));
      if (odd) found.note(types.line, 'warning', `${where}: instance type ${odd.t} is not in the GPU catalog; its GPUs are not counted`);
      continue;
    }
    const most = gpuRows.reduce((a, b) => (b.gpus > a.gpus ? b : a));
    const maxNode = mapGet(props, 'MaxSize');
    const line = nodeLine(maxNode, lc) ?? nodeLine(res, lc) ?? 1;
    const max = resolve(maxNode);
    const nodes = 'value' in max ? Number(max.value) : Number.NaN;
    if (!Number.isInteger(nodes) || nodes < 0) {
      found.note(
        line,
        'warning',
        `${where}: MaxSize ${'unknown' in max ? max.unknown : `is ${JSON.stringify(max.value)}, not a whole number`}; its GPUs are not counted`,
      );
      found.unknown(KIND, name, line);
      continue;
    }
    const mixed = new Set(rows.map((r) => r.row?.gpus ?? 0)).size > 1;
    const gpus = nodes * most.gpus;
    found.decls.push({
      file: path,
      line,
      kind: KIND,
      name,
      gpuModel: most.gpuModel,
      gpus,
      // Types that differ in GPUs per node leave the step of one more node unknown.
      ...(mixed ? {} : { gpuStep: most.gpus }),
      parts: [
        {
          label: `${id}: MaxSize ${nodes} × ${types.values.join('/')}${mixed ? ' (counted at the most GPUs per node)' : ''}`,
          resource: PRIMARY_GPU_RESOURCE,
          gpus,
          line,
        },
      ],
    });
  }
  return found.result(text);
}

/** The last line of a node (a map's last entry): 1-based. */
function nodeEnd(node: unknown, lc: LineCounter): number | null {
  const range = (node as { range?: [number, number, number] } | undefined)?.range;
  return range === undefined ? null : lc.linePos(Math.max(range[0], range[1] - 1)).line;
}

function scalarType(res: unknown): string | null {
  const t = mapGet(res, 'Type');
  return isScalar(t) && typeof t.value === 'string' ? t.value : null;
}

/** `!Ref X` or `{ Ref: X }`: the name referred to. */
function refName(node: unknown): string | null {
  if (isScalar(node) && node.tag === '!Ref' && typeof node.value === 'string') return node.value;
  if (isMap(node) && node.items.length === 1) {
    const only = node.items[0];
    if (isScalar(only?.key) && only.key.value === 'Ref' && isScalar(only.value) && typeof only.value.value === 'string')
      return only.value.value;
  }
  return null;
}

type Types = { values: string[]; line: number } | { unknown: string; line: number } | null;

/** The instance types a group launches, through its launch template, launch configuration or overrides. */
function instanceTypes(
  props: unknown,
  resource: (name: string | null) => unknown,
  resolve: (node: unknown) => Resolved,
  lineOf: (node: unknown) => number,
): Types {
  const one = (node: unknown): Types => {
    if (node === undefined || node === null) return null;
    const r = resolve(node);
    if ('unknown' in r) return { unknown: r.unknown, line: lineOf(node) };
    return typeof r.value === 'string' ? { values: [r.value], line: lineOf(node) } : null;
  };
  const mixed = mapGet(props, 'MixedInstancesPolicy');
  const overrides = mapGet(mapGet(mixed, 'LaunchTemplate'), 'Overrides');
  if (isSeq(overrides) && overrides.items.length > 0) {
    const values: string[] = [];
    for (const o of overrides.items) {
      const t = one(mapGet(o, 'InstanceType'));
      if (t && 'unknown' in t) return t;
      if (t) values.push(...t.values);
    }
    if (values.length > 0) return { values, line: lineOf(overrides) };
  }
  const template = mapGet(props, 'LaunchTemplate') ?? mapGet(mapGet(mixed, 'LaunchTemplate'), 'LaunchTemplateSpecification');
  const templateRes = resource(refName(mapGet(template, 'LaunchTemplateId')) ?? refName(mapGet(template, 'LaunchTemplateName')));
  if (templateRes !== undefined) return one(mapGet(mapGet(mapGet(templateRes, 'Properties'), 'LaunchTemplateData'), 'InstanceType'));
  const config = resource(refName(mapGet(props, 'LaunchConfigurationName')));
  if (config !== undefined) return one(mapGet(mapGet(config, 'Properties'), 'InstanceType'));
  return null;
}
