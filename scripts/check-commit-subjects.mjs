/**
 * Fails when a commit subject is longer than 72 characters, so `git log --oneline` and GitHub's
 * lists show whole subjects. Checks the commits since this script was added (older history is
 * left as written); in a clone without that history (shallow, or no git) it checks what it has.
 */
import { execFileSync } from 'node:child_process';

const LIMIT = 72;
const SELF = 'scripts/check-commit-subjects.mjs';

function git(...args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

let subjects;
try {
  const added = git('log', '--format=%H', '--diff-filter=A', '--', SELF).split('\n').pop();
  const range = added ? [`${added}^..HEAD`] : ['-1', 'HEAD'];
  let log;
  try {
    log = git('log', '--no-merges', '--format=%h %s', ...range);
  } catch {
    // The adding commit's parent is beyond a shallow clone's history.
    log = git('log', '--no-merges', '--format=%h %s', `${added}..HEAD`);
  }
  subjects = log ? log.split('\n') : [];
} catch {
  process.stdout.write('commit subjects: no git history here, nothing checked\n');
  process.exit(0);
}

const long = subjects.filter((line) => line.slice(line.indexOf(' ') + 1).length > LIMIT);
if (long.length > 0) {
  process.stderr.write(`Commit subjects over ${LIMIT} characters (shorten them; say the rest in the body):\n`);
  for (const line of long) process.stderr.write(`  ${line}\n`);
  process.exit(1);
}
