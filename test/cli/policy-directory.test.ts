import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { POLICY_PATHS } from '../../src/review/index.js';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { runCli } from './run-cli.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * A plain directory where the base's policy file should be is not "no policy", in the CLI as in
 * the App: on directories and on git refs, `review` names the policy path unread (a directory,
 * not a file) and reviews as in enforce mode, whichever policy path the directory stands at and
 * whatever the other path holds.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Shape {
  name: string;
  /** The base's files beside the queue: a directory at a policy path among them. */
  files: Record<string, string>;
  names: string;
}

const [YML, YAML] = POLICY_PATHS;
const shapes: Shape[] = [
  { name: 'the first path a directory', files: { [`${YML}/enforce.yml`]: 'mode: enforce\n' }, names: YML },
  {
    name: 'the first path a directory, the second an advise policy',
    files: { [`${YML}/nested/enforce.yml`]: 'mode: enforce\n', [YAML]: 'mode: advise\n' },
    names: YML,
  },
  { name: 'the second path a directory', files: { [`${YAML}/enforce.yml`]: 'mode: enforce\n' }, names: YAML },
];

interface Review {
  diagnostics: { file: string; severity: string; message: string }[];
}

async function review(args: string[]): Promise<Review> {
  const { code, stdout, stderr } = await runCli('review', ...args, '--format', 'json');
  expect({ stopped: code === 2, stderr }).toEqual({ stopped: false, stderr: '' });
  return JSON.parse(stdout) as Review;
}

function expectUnread(result: Review, path: string): void {
  const errors = result.diagnostics.filter((d) => d.severity === 'error' && d.file === path);
  expect(errors.map((d) => d.message).join('\n')).toMatch(/a directory, not a file.*the policy is not known/);
}

describe('a directory at a policy path of the base, through the CLI', () => {
  it.each(shapes)('directories: $name', async (shape) => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    await writeFiles(join(tmp.path, 'base'), { [QUEUE_FILE]: clusterQueue(6), ...shape.files });
    await writeFiles(join(tmp.path, 'head'), { [QUEUE_FILE]: clusterQueue(12), ...shape.files });
    expectUnread(await review(['--base', join(tmp.path, 'base'), '--head', join(tmp.path, 'head')]), shape.names);
  });

  it.each(shapes)('git refs: $name', async (shape) => {
    const repo = await tempDir();
    cleanups.push(repo.cleanup);
    git(repo.path, 'init', '-q');
    await writeFiles(repo.path, { [QUEUE_FILE]: clusterQueue(6), ...shape.files });
    const base = commitAll(repo.path, 'base');
    await writeFiles(repo.path, { [QUEUE_FILE]: clusterQueue(12) });
    const head = commitAll(repo.path, 'head');
    expectUnread(await review(['--repo', repo.path, '--base', base, '--head', head]), shape.names);
  });
});
