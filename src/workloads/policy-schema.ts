import { z } from 'zod';
import { duration, fraction, nonEmptyString, positiveNumber, repoPath } from './fields.js';

/** The policy, `.github/gpu-justify.yml` (docs/policy.md). Every field is optional. */

const TELEMETRY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Endpoints and credentials are the operator's; a repository may only pick a source by name. */
function telemetryName() {
  return z.string().superRefine((text, ctx) => {
    if (/[:/@]/.test(text) || /^www\./i.test(text)) {
      // The value is not echoed: it may carry credentials.
      ctx.addIssue({
        code: 'custom',
        message:
          'must name a telemetry source the operator configured (e.g. default), not a URL: ' +
          "endpoints and credentials come from the operator's environment (PROMETHEUS_URL, " +
          'OPENCOST_URL), never from the repository',
      });
    } else if (!TELEMETRY_NAME.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a name made of letters, digits, ".", "_" or "-", got ${JSON.stringify(text)}`,
      });
    }
  });
}

/** GPU model names as price keys (`H100`, `A100-80GB`); the pattern also keeps out `__proto__`. */
const gpuModel = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._ -]*$/, { error: 'is not a GPU model name' });

export const overridesSchema = z.strictObject({
  minPermission: z.enum(['write', 'maintain', 'admin']).optional(),
  teams: z.array(nonEmptyString()).optional().describe('Org team slugs whose members may override'),
  allowAuthor: z.boolean().optional(),
  catalogOwners: z
    .boolean()
    .optional()
    .describe("The catalog's code owners (CODEOWNERS) may approve demand a pull request declares in the catalog, and that alone"),
});

export const policySchema = z.strictObject({
  _extends: z.string().optional().describe("Probot's inheritance from another repository's config"),
  mode: z.enum(['advise', 'enforce']).optional(),
  catalog: repoPath().optional(),
  window: duration().optional().describe('Telemetry look-back, e.g. 14d'),
  headroom: fraction().optional(),
  idleBelow: fraction().optional(),
  overrides: overridesSchema.optional(),
  prices: z.record(gpuModel, positiveNumber()).optional().describe('USD per GPU-hour'),
  telemetry: telemetryName().optional(),
  comment: z
    .enum(['always', 'changes', 'never'])
    .optional()
    .describe(
      'When the review comments: on every pull request, when GPU capacity changes or a file could not be read, or never (the check alone)',
    ),
});
