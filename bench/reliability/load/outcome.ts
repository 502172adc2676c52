import { COMMENT_MARKER } from '../../../src/report/comment.js';
import { REPLY_MARKER } from '../../../src/github/overrides/explain.js';
import type { LoadFakeGitHub } from './fake-github-server.js';
import type { Delivery, Scenario } from './scenario.js';

/** What the deliveries of a load run should have left behind on GitHub, and what they did not. */
export interface Outcome {
  lostEvents: string[];
  headsNeverReviewed: number;
  duplicateReviewComments: string[];
  staleFinalComments: string[];
  duplicateReplies: string[];
  duplicateCommentsCreated: number;
  duplicateCheckRuns: number;
}

/** Judges the fake GitHub's state after a run against what was delivered. */
export function judgeOutcome(fake: LoadFakeGitHub, scenario: Scenario, delivered: readonly Delivery[]): Outcome {
  const runs = [...fake.checkRuns.values()];
  const runsBySha = new Map<string, number>();
  for (const r of runs) runsBySha.set(r.headSha, (runsBySha.get(r.headSha) ?? 0) + 1);
  const lostEvents: string[] = [];
  const distinct = new Map<string, Delivery>();
  for (const d of delivered) distinct.set(d.id, d);
  // Every pull request ends with a concluded check on its final head; heads pushed over before
  // a review began are superseded, not lost.
  const prs = new Set([...distinct.values()].map((d) => d.pr));
  for (const pr of prs) {
    const head = scenario.finalHead.get(pr) ?? '';
    if (!runs.some((r) => r.headSha === head && r.status === 'completed'))
      lostEvents.push(`#${pr}: no concluded check run on its final head ${head.slice(0, 7)}`);
  }
  const pushedHeads = new Set([...distinct.values()].filter((d) => d.sha !== undefined).map((d) => d.sha as string));
  const headsNeverReviewed = [...pushedHeads].filter((sha) => !runsBySha.has(sha)).length;
  for (const d of distinct.values()) {
    if (d.event !== 'issue_comment' || !d.command?.startsWith('/gpu-justify') || d.commentId === undefined) continue;
    if (!(fake.reactions.get(d.commentId) ?? []).includes('eyes'))
      lostEvents.push(`command "${d.command}" on #${d.pr} (comment ${d.commentId}) got no reaction`);
  }
  const duplicateReviewComments: string[] = [];
  const staleFinalComments: string[] = [];
  for (const pr of scenario.gpuPrs) {
    const ours = fake.commentsOf(pr).filter((c) => c.body.includes(COMMENT_MARKER));
    if (ours.length > 1) duplicateReviewComments.push(`#${pr}: ${ours.length} review comments`);
    const head = scenario.finalHead.get(pr) ?? '';
    const last = ours.at(-1);
    if (!last || !last.body.includes(`/blob/${head}`))
      staleFinalComments.push(`#${pr}: final comment ${last ? 'is for another commit' : 'missing'}`);
  }
  const duplicateReplies: string[] = [];
  const replyCommands = [...distinct.values()].filter((d) => d.command === '/gpu-justify explain' || d.command === '/gpu-justify help');
  const repliesByPr = new Map<number, number>();
  for (const c of fake.comments)
    if (c.body.includes(REPLY_MARKER) && !c.body.includes(COMMENT_MARKER)) repliesByPr.set(c.issue, (repliesByPr.get(c.issue) ?? 0) + 1);
  const expectedByPr = new Map<number, number>();
  for (const d of replyCommands) expectedByPr.set(d.pr, (expectedByPr.get(d.pr) ?? 0) + 1);
  for (const [pr, n] of repliesByPr) {
    const expected = expectedByPr.get(pr) ?? 0;
    if (n > expected) duplicateReplies.push(`#${pr}: ${n} replies to ${expected} distinct commands`);
  }
  for (const [pr, expected] of expectedByPr) {
    const n = repliesByPr.get(pr) ?? 0;
    if (n < expected) lostEvents.push(`#${pr}: ${n} replies to ${expected} explain/help commands`);
  }

  let duplicateCommentsCreated = 0;
  for (const n of fake.markedCreated.values()) duplicateCommentsCreated += Math.max(0, n - 1);
  let duplicateCheckRuns = 0;
  for (const n of runsBySha.values()) duplicateCheckRuns += Math.max(0, n - 1);
  return {
    lostEvents,
    headsNeverReviewed,
    duplicateReviewComments,
    staleFinalComments,
    duplicateReplies,
    duplicateCommentsCreated,
    duplicateCheckRuns,
  };
}

/** Where a secret of the run reached: a request to GitHub or a log line. */
export function findSecretLeaks(fake: LoadFakeGitHub, allLines: readonly string[], secretsToFind: readonly string[]): string[] {
  const secretLeaks: string[] = [];
  for (const s of secretsToFind) {
    if (fake.sent.some((r) => r.includes(s))) secretLeaks.push(`a request to GitHub carried ${s.slice(0, 8)}…`);
    if (allLines.some((l) => l.includes(s))) secretLeaks.push(`a log line carried ${s.slice(0, 8)}…`);
  }
  return secretLeaks;
}
