import type { Diagnostic } from '../../domain/diagnostic.js';
import type { CheckOutput } from '../../report/index.js';
import { code, md } from '../../report/index.js';

/** `owner/repo:path`: a policy file read from another repository (an `_extends` or org default). */
const REMOTE_LABEL = /^[\w.-]+\/[\w.-]+:/;

/**
 * Fits the report's check output to this repository: annotations only on files of this
 * repository (GitHub cannot place one in another), and policy warnings listed with file and
 * line in the summary, so one in a shared file is seen too (errors the report lists first).
 */
export function adaptCheckOutput(output: CheckOutput, policyDiagnostics: readonly Diagnostic[]): CheckOutput {
  const annotations = output.annotations.filter((a) => !REMOTE_LABEL.test(a.path));
  // Errors are listed first by the report (they make the review fail closed); the rest go here.
  const remaining = policyDiagnostics.filter((d) => d.severity !== 'error');
  if (remaining.length === 0) return { ...output, annotations };
  const items = remaining.map((d) => `- ${d.severity}: ${code(d.line === null ? d.file : `${d.file}:${d.line}`)} ${md(d.message, 400)}`);
  return {
    ...output,
    annotations,
    summary: `${output.summary}\n\n**Policy problems** (the rest of the policy still applies):\n${items.join('\n')}`,
  };
}
