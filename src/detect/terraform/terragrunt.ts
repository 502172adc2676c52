import { Locator } from './locator.js';
import type { Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { single } from './pool-context.js';

/** The label the readers see a Terragrunt unit's module call under (`module.terragrunt` in messages). */
const TERRAGRUNT_LABEL = 'terragrunt';

export function isTerragruntPath(path: string): boolean {
  return path === 'terragrunt.hcl' || path.endsWith('/terragrunt.hcl');
}

/**
 * A Terragrunt unit as the module call it makes: `terraform { source = … }` called with
 * `inputs = { … }`, so the module readers (the EKS and GKE community modules, the warnings about
 * modules not read) read it as they read a `module` block. Null when it names no source or has
 * no literal `inputs` object.
 */
export function terragruntCall(
  body: Record<string, unknown>,
  text: string,
): { body: Record<string, unknown>; loc: Locator; source: string } | null {
  const source = single(body.terraform).source;
  const inputs = body.inputs;
  if (typeof source !== 'string' || inputs === null || typeof inputs !== 'object' || Array.isArray(inputs)) return null;
  return {
    body: {
      module: { [TERRAGRUNT_LABEL]: [{ source, ...asRecord(inputs) }] },
      ...(body.locals === undefined ? {} : { locals: body.locals }),
    },
    loc: new InputsLocator(text),
    source,
  };
}

/** Finds the synthetic `module "terragrunt"` block at the unit's `inputs = { … }`. */
class InputsLocator extends Locator {
  constructor(private readonly text: string) {
    super(text);
  }

  override path(within: Span, steps: readonly (string | readonly string[])[]): Span | null {
    const [first, ...rest] = steps;
    const file = this.file();
    if (
      within.start === file.start &&
      within.end === file.end &&
      Array.isArray(first) &&
      first[0] === 'module' &&
      first[1] === TERRAGRUNT_LABEL
    ) {
      // A unit whose inputs all come from what it includes: its first include block stands in.
      const inputs = this.child(file, 'inputs') ?? this.include();
      return inputs === null || rest.length === 0 ? inputs : super.path(inputs, rest);
    }
    return super.path(within, steps);
  }

  private include(): Span | null {
    const m = /^include\b[^{\n]*\{/m.exec(this.text);
    return m ? { start: m.index + m[0].length, end: m.index + m[0].length, line: this.lineAt(m.index) } : null;
  }
}
