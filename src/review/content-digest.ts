import { createHash } from 'node:crypto';
import type { ChangeSet, FileCoverage } from '../domain/index.js';

/**
 * Each file not followed with a digest of its text at base and head. The review can name what it
 * did not follow (a module input, a quota it could not parse) but not what the file now says, so
 * an edit that leaves every name and line in place (a count raised inside a module call) must still
 * read as a different file. A side that cannot be read is keyed by why, so it stays the same
 * entry only while it fails the same way.
 */
export async function withContentDigests(changes: ChangeSet, coverage: readonly FileCoverage[]): Promise<FileCoverage[]> {
  return Promise.all(
    coverage.map(async (c) => {
      if (c.state !== 'not-followed') return c;
      const [base, head] = await Promise.all([sideText(changes.base, c.file), sideText(changes.head, c.file)]);
      const content = createHash('sha256')
        .update(JSON.stringify([base, head]))
        .digest('hex')
        .slice(0, 32);
      return { ...c, content };
    }),
  );
}

async function sideText(side: ChangeSet['base'], file: string): Promise<string | null | { unread: string }> {
  try {
    return await side.read(file);
  } catch (err) {
    return { unread: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}
