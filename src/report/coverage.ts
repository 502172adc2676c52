import { notFollowedEvidence } from './not-followed.js';
import type { FileCoverage } from '../domain/index.js';
import { code, prose } from './escape.js';

/** Files shown in the comment's list; the rest are counted. */
const MAX_SHOWN = 20;

/** `coverage` of `detect --json` and `review --format json`: one row per changed file. */
export function coverageJson(coverage: readonly FileCoverage[]) {
  return coverage.map((c) => {
    const first = c.notFollowed?.[0];
    return {
      file: c.file,
      state: c.state,
      ...(first === undefined ? {} : { reason: first.reason }),
      ...(first?.line == null ? {} : { line: first.line }),
      ...(c.objects === undefined ? {} : { objects: c.objects }),
      ...(c.notFollowed === undefined
        ? {}
        : {
            notFollowed: c.notFollowed.map((n) => {
              const m = notFollowedEvidence(n);
              return {
                reason: n.reason,
                line: n.line,
                subject: n.subject,
                ...(n.needs === undefined ? {} : { needs: n.needs }),
                ...(n.inputs === undefined ? {} : { inputs: n.inputs }),
                message: `${m.what}: ${m.how}`,
              };
            }),
          }),
    };
  });
}

/**
 * The files that could change GPU capacity in ways the review did not follow, each with what
 * would let it follow them: shown before anything else, since they are why no verdict is sure.
 */
export function notFollowedSection(coverage: readonly FileCoverage[]): string | null {
  const files = coverage.filter((c) => c.state === 'not-followed');
  if (files.length === 0) return null;
  const items = files.slice(0, MAX_SHOWN).flatMap((c) =>
    (c.notFollowed ?? []).map((n) => {
      const m = notFollowedEvidence(n);
      return `- ${code(n.line === null ? n.file : `${n.file}:${n.line}`)}: ${prose(`${m.what}. ${capitalise(m.how)}.`)}`;
    }),
  );
  const left = files.length - Math.min(files.length, MAX_SHOWN);
  const title = `#### Not followed (${files.length} file${files.length === 1 ? '' : 's'})`;
  const intro = 'These files could change GPU capacity in ways this review did not follow, so it cannot say the pull request is fine:';
  return [title, '', intro, '', ...items, ...(left > 0 ? ['', `…and ${left} more files not shown.`] : [])].join('\n');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
