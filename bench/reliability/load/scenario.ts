import { createHash, randomUUID } from 'node:crypto';
import { issueCommentPayload, pullRequestPayload } from '../../../test/helpers/payloads.js';
import type { LoadFakeGitHub } from './fake-github-server.js';
import { MEASURED_CATALOG, clusterQueue } from '../../../test/github/scenarios.js';
import { seeded } from '../../lib/measure.js';

/**
 * The deliveries of one load run, generated from a seed: GPU and non-GPU pull requests opened and
 * pushed to, some pushes delivered out of order, comments with commands, and redeliveries of
 * earlier deliveries (same `x-github-delivery`, same body).
 */

/** The first installation; with several, pull request n belongs to installation FIRST + n mod count. */
const FIRST_INSTALLATION = 4242;
const QUEUE_FILE = 'clusters/prod/queues.yaml';
const CATALOG_FILE = 'gpu-workloads.yaml';

export interface Delivery {
  id: string;
  event: 'pull_request' | 'issue_comment';
  payload: Record<string, unknown>;
  /** Pull request number. */
  pr: number;
  /** Head SHA of a pull_request delivery; the command of a comment. */
  sha?: string;
  command?: string;
  commentId?: number;
  redelivery: boolean;
}

/** One dispatch: state changes on the fake (pushes), then its deliveries, sent in order. */
interface Step {
  apply: (fake: LoadFakeGitHub) => void;
  deliveries: Delivery[];
}

export interface Scenario {
  steps: Step[];
  gpuPrs: number[];
  /** The last head each pull request was pushed to. */
  finalHead: Map<number, string>;
  counts: Record<string, number>;
}

// The ClusterQueue the App's own tests use, so the load run reviews the same files.
/** Nightly eval as the simulated cluster runs it: namespace `eval`, Kueue queue `research`. */
const CATALOG = MEASURED_CATALOG;

const POLICY = 'window: 2d\n';

const sha = (text: string) => createHash('sha1').update(text).digest('hex');

export function buildScenario(options: { deliveries: number; prs: number; seed: number; installations?: number }): Scenario {
  // Each installation has its own write pacing (GitHub limits writes per installation).
  const installationOf = (pr: number) => FIRST_INSTALLATION + (pr % Math.max(1, options.installations ?? 1));
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const baseSha = sha('base');
  const baseFiles = { [QUEUE_FILE]: clusterQueue(6), [CATALOG_FILE]: CATALOG, '.github/gpu-justify.yml': POLICY, 'README.md': '# infra\n' };
  const finalHead = new Map<number, string>();
  const gpuPrs: number[] = [];
  let commentId = 900_000;
  const counts: Record<string, number> = { opened: 0, synchronize: 0, outOfOrderPairs: 0, comments: 0, redeliveries: 0 };

  const headFiles = (pr: number, push: number, gpu: boolean): Record<string, string> =>
    gpu
      ? { ...baseFiles, [QUEUE_FILE]: clusterQueue(8 + 2 * push + (pr % 3)) }
      : { ...baseFiles, 'README.md': `# infra\n\nPR ${pr}, push ${push}\n` };
  const pushState = (pr: number, head: string, files: Record<string, string>) => (fake: LoadFakeGitHub) => {
    // The base branch holds the files too: without it every file would read as added and
    // every pull request, README-only ones included, would grow GPU capacity.
    if (!fake.trees.has(baseSha)) fake.trees.set(baseSha, baseFiles);
    fake.trees.set(head, files);
    fake.pulls.set(pr, { number: pr, baseSha, headSha: head });
  };
  const prDelivery = (pr: number, action: 'opened' | 'synchronize', head: string): Delivery => ({
    id: randomUUID(),
    event: 'pull_request',
    payload: pullRequestPayload({ action, installationId: installationOf(pr), number: pr, baseSha, headSha: head }),
    pr,
    sha: head,
    redelivery: false,
  });

  // Per pull request, its own ordered steps; interleaved at random below.
  const perPr: Step[][] = [];
  const budget = Math.round(options.deliveries * 0.9);
  let planned = 0;
  const pushes = new Map<number, number>();
  const prNumbers = Array.from({ length: options.prs }, (_, i) => 100 + i);
  for (const pr of prNumbers) {
    const gpu = pr % 2 === 0;
    if (gpu) gpuPrs.push(pr);
    const head = sha(`${pr}-0`);
    finalHead.set(pr, head);
    pushes.set(pr, 0);
    perPr.push([{ apply: pushState(pr, head, headFiles(pr, 0, gpu)), deliveries: [prDelivery(pr, 'opened', head)] }]);
    counts.opened = (counts.opened ?? 0) + 1;
    planned++;
  }
  while (planned < budget) {
    const index = Math.floor(random() * prNumbers.length);
    const pr = prNumbers[index] as number;
    const steps = perPr[index] as Step[];
    const gpu = pr % 2 === 0;
    const roll = random();
    if (roll < 0.2) {
      const command = pick(['/gpu-justify', '/gpu-justify explain', '/gpu-justify help', 'Looks good to me.']);
      const id = commentId++;
      steps.push({
        apply: () => undefined,
        deliveries: [
          {
            id: randomUUID(),
            event: 'issue_comment',
            payload: issueCommentPayload({ installationId: installationOf(pr), number: pr, body: command, commentId: id }),
            pr,
            command,
            commentId: id,
            redelivery: false,
          },
        ],
      });
      counts.comments = (counts.comments ?? 0) + 1;
      planned++;
    } else if (roll < 0.45 && planned + 2 <= budget) {
      // Two pushes in quick succession whose webhooks arrive newest first.
      const n = (pushes.get(pr) ?? 0) + 1;
      const [a, b] = [sha(`${pr}-${n}`), sha(`${pr}-${n + 1}`)];
      pushes.set(pr, n + 1);
      finalHead.set(pr, b);
      steps.push({
        apply: (fake) => {
          pushState(pr, a, headFiles(pr, n, gpu))(fake);
          pushState(pr, b, headFiles(pr, n + 1, gpu))(fake);
        },
        deliveries: [prDelivery(pr, 'synchronize', b), prDelivery(pr, 'synchronize', a)],
      });
      counts.synchronize = (counts.synchronize ?? 0) + 2;
      counts.outOfOrderPairs = (counts.outOfOrderPairs ?? 0) + 1;
      planned += 2;
    } else {
      const n = (pushes.get(pr) ?? 0) + 1;
      const head = sha(`${pr}-${n}`);
      pushes.set(pr, n);
      finalHead.set(pr, head);
      steps.push({ apply: pushState(pr, head, headFiles(pr, n, gpu)), deliveries: [prDelivery(pr, 'synchronize', head)] });
      counts.synchronize = (counts.synchronize ?? 0) + 1;
      planned++;
    }
  }

  // Interleave the pull requests' steps, keeping each one's order.
  const queues = perPr.map((s) => [...s]);
  const steps: Step[] = [];
  while (queues.some((q) => q.length > 0)) {
    const open = queues.filter((q) => q.length > 0);
    steps.push(pick(open).shift() as Step);
  }

  // Redeliveries: an earlier delivery sent again, same id and body, a few steps later.
  const sent: Delivery[] = [];
  const withRedeliveries: Step[] = [];
  const redeliveries = options.deliveries - planned;
  const every = steps.length / Math.max(1, redeliveries);
  let due = every;
  steps.forEach((step, i) => {
    withRedeliveries.push(step);
    sent.push(...step.deliveries);
    while (i + 1 >= due && (counts.redeliveries ?? 0) < redeliveries) {
      const original = sent[Math.max(0, sent.length - 1 - Math.floor(random() * Math.min(40, sent.length)))] as Delivery;
      withRedeliveries.push({ apply: () => undefined, deliveries: [{ ...original, redelivery: true }] });
      counts.redeliveries = (counts.redeliveries ?? 0) + 1;
      due += every;
    }
  });
  return { steps: withRedeliveries, gpuPrs, finalHead, counts };
}
