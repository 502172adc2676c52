import type { Diagnostic, MeasurableWorkload, Workload } from '../domain/index.js';
import { diagnostic } from '../domain/index.js';

/**
 * The workloads as the operator's Prometheus may be asked about them. An outcome query is
 * free-form PromQL, and the catalog comes from the pull request: run as written, a PR could
 * make the review read any series and print it in the comment. So outcome queries come from
 * the base branch's catalog; a PR that adds or edits one sees it used once it is merged.
 * Selectors stay the head's: they are label values, escaped into fixed query shapes.
 */
export function withTrustedQueries(
  head: readonly MeasurableWorkload[],
  base: readonly Workload[] | null,
  catalogFile: string,
): { workloads: MeasurableWorkload[]; diagnostics: Diagnostic[] } {
  const baseByName = new Map((base ?? []).map((w) => [w.name, w]));
  const diagnostics: Diagnostic[] = [];
  const workloads = head.map((w) => {
    if (w.outcomes === undefined) return w;
    const trusted = baseByName.get(w.name)?.outcomes;
    if (trusted !== undefined && sameQueries(trusted, w.outcomes)) return w;
    diagnostics.push(
      diagnostic(
        catalogFile,
        w.source.line,
        'info',
        trusted === undefined
          ? `${w.name}: its outcome queries are new in this pull request; they are run against the cluster once merged, so verified outcomes are not measured in this review`
          : `${w.name}: this pull request changes its outcome queries; the base branch's are used until it is merged`,
      ),
    );
    const { outcomes: _dropped, ...rest } = w;
    return trusted === undefined ? rest : { ...w, outcomes: trusted };
  });
  return { workloads, diagnostics };
}

function sameQueries(a: NonNullable<Workload['outcomes']>, b: NonNullable<Workload['outcomes']>): boolean {
  return a.verified === b.verified && a.total === b.total;
}
