import type { ReviewResult } from '../../src/domain/index.js';
import { renderExplain } from '../../src/github/overrides/explain.js';
import { adaptCheckOutput } from '../../src/github/publish/check-output.js';
import { renderCheck, renderFailedCheck } from '../../src/report/check.js';
import { renderComment } from '../../src/report/comment.js';

/** The head commit the comment's links point at in the tests of PR strings. */
export const HEAD_URL = 'https://github.com/acme/infra/blob/0123456789abcdef0123456789abcdef01234567';

/** A ClusterQueue named `name` (written as a JSON string, so any characters stay one scalar) with `gpus` of quota; `comment` ends the quota's line. */
export function quotedQueueFile(name: string, gpus: number, comment = ''): string {
  return `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: ${JSON.stringify(name)}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}${comment}
`;
}

/**
 * Every surface a review's words reach, each named for the failure message: the comment, the
 * check run as GitHub takes it and its annotations (their paths too with `annotationPaths`), the
 * explanation, and a failed check quoting `path`. The comment and the check come back beside them.
 */
export function reviewSurfaces(result: ReviewResult, path: string, options: { annotationPaths?: boolean } = {}) {
  const body = renderComment(result, { headUrl: HEAD_URL });
  const check = adaptCheckOutput(renderCheck(result, body), []);
  const surfaces: [string, string][] = [
    ['comment', body],
    ['check title', check.title],
    ['check summary', check.summary],
    ['check text', check.text ?? ''],
    ['explain', renderExplain(result)],
    ['failed check', renderFailedCheck(`could not read ${path}`, 'enforce').summary],
    ...check.annotations.flatMap((a): [string, string][] => [
      ...(options.annotationPaths === true ? [['annotation path', a.path] satisfies [string, string]] : []),
      ['annotation title', a.title ?? ''],
      ['annotation message', a.message],
    ]),
  ];
  return { body, check, surfaces };
}
