import { GpuJustifyError } from '../../domain/errors.js';
import { COMMENT_MARKER } from '../../report/index.js';
import { CHECK_NAME } from './check-run.js';
import { SUGGESTION_MARKER } from './suggestions.js';

/**
 * An operator's name for one installation (`GPU_JUSTIFY_INSTANCE`, the Action's `instance`), so
 * that two of them on one repository, such as a staging and a production App or two workflows
 * under one login, each keep their own comment, suggestions and check run. Without a name every
 * marker and the check's name are exactly what they have always been, so comments written before
 * are still found.
 */
export interface Instance {
  name: string | null;
  /** Marks our sticky comment. */
  commentMarker: string;
  /** Marks our suggested changes. */
  suggestionMarker: string;
  checkName: string;
}

/** Short, lower case, digits and inner hyphens: it goes into HTML comments and a check's name. */
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** The operator's instance name cannot be used: bad input, as the Action reports it. */
export class InstanceNameError extends GpuJustifyError {
  override readonly kind = 'bad-input';

  constructor(value: string) {
    super(`GPU_JUSTIFY_INSTANCE must be 1 to 32 of a-z, 0-9 and inner hyphens, got ${JSON.stringify(value.slice(0, 40))}`);
    this.name = 'InstanceNameError';
  }
}

export const DEFAULT_INSTANCE: Instance = namedInstance(null);

/** The instance a name gives; throws InstanceNameError on a name that is not valid. */
export function namedInstance(name: string | null): Instance {
  if (name === null) return { name, commentMarker: COMMENT_MARKER, suggestionMarker: SUGGESTION_MARKER, checkName: CHECK_NAME };
  if (!NAME.test(name)) throw new InstanceNameError(name);
  return {
    name,
    commentMarker: COMMENT_MARKER.replace(' -->', `:${name} -->`),
    suggestionMarker: SUGGESTION_MARKER.replace(' -->', `:${name} -->`),
    checkName: `${CHECK_NAME} (${name})`,
  };
}

/** `GPU_JUSTIFY_INSTANCE` as the operator set it; empty or unset is no name. */
export function instanceFromEnv(env: Record<string, string | undefined>): Instance {
  const value = env['GPU_JUSTIFY_INSTANCE']?.trim() ?? '';
  return namedInstance(value === '' ? null : value);
}
