import type { HclBody } from './hcl.js';

/**
 * Terraform's merge of override files (`override.tf`, `*_override.tf`, their `.tf.json` forms and
 * OpenTofu's `.tofu` ones) into a module's other files, as the language documents it
 * (developer.hashicorp.com/terraform/language/files/override) and internal/configs/module_merge.go
 * applies it: override files are taken after the primary files, in lexical order of their names,
 * and each top-level block merges into the block of the same type and labels. The bodies are
 * hcl2json's shape, where every nested block type is one key holding the list of its blocks: an
 * argument that replaces an argument and a block type that replaces all blocks of that type are
 * both one key replaced.
 */

/** One parsed file, primary or override. */
export interface MergeFile {
  path: string;
  body: HclBody;
}

/** Where an override block went: the block it merged into, by file and header. */
export interface Placement {
  /** The override file, and the header of its block (`['resource', type, name]`, `['locals']`). */
  from: string;
  header: readonly string[];
  /** The primary file holding the block it merged into. */
  into: string;
}

/** An override the merge could not apply as Terraform would, or whose result it cannot tell. */
export interface MergeProblem {
  file: string;
  header: readonly string[];
  why: string;
}

export interface MergeOutcome {
  /** The primary files, each body with the overrides merged in (copies: the inputs are untouched). */
  files: MergeFile[];
  placements: Placement[];
  problems: MergeProblem[];
}

// Blocks addressed by two labels, by one, and by none (hcl2json: `resource.type.name[]`, `module.name[]`, `locals[]`).
const TWO_LABELS = ['resource', 'data', 'ephemeral'] as const;
const ONE_LABEL = ['module', 'variable', 'output'] as const;

type Body = Record<string, unknown>;

const isBody = (v: unknown): v is Body => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A block list as hcl2json writes it (a list of bodies), or a `.tf.json` single object. */
const blockList = (v: unknown): Body[] => (Array.isArray(v) ? v.filter(isBody) : isBody(v) ? [v] : []);

/** The override files of a module merged into its primary files, in the order Terraform applies them. */
export function mergeOverrides(primaries: readonly MergeFile[], overrides: readonly MergeFile[]): MergeOutcome {
  const state = new MergeState(primaries);
  // Lexical order of the file names: a module is one folder, so of the paths.
  for (const o of [...overrides].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) state.apply(o);
  return { files: state.result(), placements: state.placements, problems: state.problems };
}

class MergeState {
  readonly placements: Placement[] = [];
  readonly problems: MergeProblem[] = [];
  private readonly bodies: Body[];

  constructor(private readonly primaries: readonly MergeFile[]) {
    this.bodies = primaries.map((p) => ({ ...p.body }));
  }

  result(): MergeFile[] {
    return this.primaries.map((p, i) => ({ path: p.path, body: this.bodies[i] ?? p.body }));
  }

  apply(o: MergeFile): void {
    for (const [type, value] of Object.entries(o.body)) {
      if ((TWO_LABELS as readonly string[]).includes(type)) {
        for (const [kind, byName] of Object.entries(isBody(value) ? value : {}))
          for (const [name, blocks] of Object.entries(isBody(byName) ? byName : {}))
            for (const block of blockList(blocks)) this.labelled(o.path, [type, kind, name], block);
      } else if ((ONE_LABEL as readonly string[]).includes(type)) {
        for (const [name, blocks] of Object.entries(isBody(value) ? value : {}))
          for (const block of blockList(blocks)) this.labelled(o.path, [type, name], block);
      } else if (type === 'locals') {
        for (const block of blockList(value)) this.locals(o.path, block);
      } else if (type === 'provider') {
        for (const [name, blocks] of Object.entries(isBody(value) ? value : {}))
          for (const block of blockList(blocks)) this.provider(o.path, name, block);
      } else if (type === 'terraform') {
        for (const block of blockList(value)) this.terraform(o.path, block);
      } else {
        // `moved`, `import`, `removed`, `check` and whatever a later language adds: Terraform
        // refuses to override the first ones, and the merge of the others is not known here.
        this.problems.push({ file: o.path, header: [type], why: `a \`${type}\` block in an override file is not merged here` });
      }
    }
  }

  /** A block addressed by its labels: merged into the one primary block of that header. */
  private labelled(from: string, header: readonly string[], block: Body): void {
    const targets = this.find(header);
    const problem = (why: string) => this.problems.push({ file: from, header, why });
    if (targets.length !== 1) {
      problem(targets.length === 0 ? 'no block of the other files has this header to merge into' : 'several blocks have this header');
      return;
    }
    if ('depends_on' in block) return void problem('`depends_on` may not be overridden');
    const [{ index, holder, key, at }] = targets as [Target];
    const base = holder[key] as Body[];
    const uncertain = dynamicClash(base[at] ?? {}, block);
    if (uncertain !== null) return void problem(uncertain);
    const merged = header[0] === 'resource' ? mergeResource(base[at] ?? {}, block) : { ...base[at], ...block };
    holder[key] = base.map((b, i) => (i === at ? merged : b));
    this.placements.push({ from, header, into: this.primaries[index]?.path ?? '' });
  }

  /** Each local replaced by name, whichever `locals` block of the primaries holds it. */
  private locals(from: string, block: Body): void {
    for (const [name, value] of Object.entries(block)) {
      const header = ['locals', name];
      const holders = this.bodies.flatMap((body, index) => blockList(body.locals).flatMap((b, at) => (name in b ? [{ index, at }] : [])));
      if (holders.length !== 1) {
        this.problems.push({
          file: from,
          header,
          why: holders.length === 0 ? 'no local of that name to override' : 'the local is declared twice',
        });
        continue;
      }
      const [{ index, at }] = holders as [{ index: number; at: number }];
      const body = this.bodies[index] as Body;
      body.locals = blockList(body.locals).map((b, i) => (i === at ? { ...b, [name]: value } : b));
      this.placements.push({ from, header, into: this.primaries[index]?.path ?? '' });
    }
  }

  /** A provider configuration, by name and alias (none for the default one). */
  private provider(from: string, name: string, block: Body): void {
    const alias = block.alias;
    const header = ['provider', name, ...(typeof alias === 'string' ? [alias] : [])];
    const targets = this.bodies.flatMap((body, index) => {
      const byName = isBody(body.provider) ? body.provider : {};
      return blockList(byName[name]).flatMap((b, at) => (b.alias === alias ? [{ index, at }] : []));
    });
    if (targets.length !== 1) {
      this.problems.push({ file: from, header, why: 'no single provider configuration of that name and alias to merge into' });
      return;
    }
    const [{ index, at }] = targets as [{ index: number; at: number }];
    const body = this.bodies[index] as Body;
    const byName = { ...(body.provider as Body) };
    byName[name] = blockList(byName[name]).map((b, i) => (i === at ? { ...b, ...block } : b));
    body.provider = byName;
    this.placements.push({ from, header, into: this.primaries[index]?.path ?? '' });
  }

  /**
   * Settings of a `terraform` block one by one, `required_providers` provider by provider, and a
   * `backend` or `cloud` block replacing either. Such a block needs no block to merge into.
   */
  private terraform(from: string, block: Body): void {
    const index = Math.max(
      0,
      this.bodies.findIndex((b) => blockList(b.terraform).length > 0),
    );
    const body = this.bodies[index];
    if (body === undefined) return void this.problems.push({ file: from, header: ['terraform'], why: 'the module has no other file' });
    const [first = {}, ...rest] = blockList(body.terraform);
    const merged: Body = { ...first };
    for (const [key, value] of Object.entries(block)) {
      if (key === 'required_providers') {
        const providers = Object.assign({}, ...blockList(first.required_providers), ...blockList(value)) as Body;
        merged.required_providers = [providers];
      } else if (key === 'backend' || key === 'cloud') {
        delete merged.backend;
        delete merged.cloud;
        merged[key] = value;
      } else merged[key] = value;
    }
    body.terraform = [merged, ...rest];
    this.placements.push({ from, header: ['terraform'], into: this.primaries[index]?.path ?? '' });
  }

  /** Every primary block of a header, with where it sits (the holder object and its key, a copy on the way). */
  private find(header: readonly string[]): Target[] {
    const out: Target[] = [];
    this.bodies.forEach((body, index) => {
      let holder: Body = body;
      const path = header.slice(0, -1);
      for (const step of path) {
        const next = holder[step];
        if (!isBody(next)) return;
        // Copied on the way down, so the merge never writes into a parsed body another reading shares.
        holder[step] = { ...next };
        holder = holder[step] as Body;
      }
      const key = header.at(-1) ?? '';
      const blocks = holder[key];
      if (blocks === undefined) return;
      holder[key] = blockList(blocks);
      (holder[key] as Body[]).forEach((_b, at) => out.push({ index, holder, key, at }));
    });
    return out;
  }
}

interface Target {
  index: number;
  holder: Body;
  key: string;
  at: number;
}

/**
 * A resource: arguments and block types replaced, but `lifecycle` merged argument by argument
 * (module_merge.go: `create_before_destroy`, `prevent_destroy`, `ignore_changes` each kept unless set).
 */
function mergeResource(base: Body, over: Body): Body {
  const merged = { ...base, ...over };
  if ('lifecycle' in over && 'lifecycle' in base) {
    const lifecycle = Object.assign({}, ...blockList(base.lifecycle), ...blockList(over.lifecycle)) as Body;
    merged.lifecycle = [lifecycle];
  }
  return merged;
}

/**
 * A `dynamic` block in the override, or one in the base of a type the override sets: Terraform
 * merges the body before it expands `dynamic` blocks, so which blocks survive is not the plain
 * rule. Not applied here: the merge names it.
 */
function dynamicClash(base: Body, over: Body): string | null {
  if ('dynamic' in over) return 'a `dynamic` block in an override block is not merged here';
  const expanded = Object.keys(isBody(base.dynamic) ? base.dynamic : {}).filter((k) => k in over);
  return expanded.length === 0 ? null : `the override sets \`${expanded[0] ?? ''}\`, which the block builds with a \`dynamic\` block`;
}
