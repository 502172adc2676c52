import { createHash } from 'node:crypto';
import type { ChangeSet, FileCoverage, TreeReader } from '../domain/index.js';

/**
 * Each file not followed with a digest of its text at base and head. The review can name what it
 * did not follow (a module input, a quota it could not parse) but not what the file now says, so
 * an edit that leaves every name and line in place (a count raised inside a module call) must still
 * read as a different file. A side that cannot be read is keyed by why and, where the host gives
 * one, by its content id (git's blob id): a file refused for its size is otherwise known by its
 * size alone, and content swapped for as many bytes would keep a grant given to the old one.
 */
export async function withContentDigests(changes: ChangeSet, coverage: readonly FileCoverage[]): Promise<FileCoverage[]> {
  return Promise.all(
    coverage.map(async (c) => {
      if (c.state !== 'not-followed') return c;
      const [base, head] = await Promise.all([sideKey(changes.base, c.file), sideKey(changes.head, c.file)]);
      const content = createHash('sha256')
        .update(JSON.stringify([base, head]))
        .digest('hex')
        .slice(0, 32);
      return { ...c, content };
    }),
  );
}

type SideKey = string | null | { unread: string } | { unread?: string; id: string | null };

async function sideKey(side: TreeReader, file: string): Promise<SideKey> {
  const text = await sideText(side, file);
  // Text read is the content itself; a side read as nothing may be one refused for its size.
  if (typeof text === 'string' || side.contentId === undefined) return text;
  const id = await side.contentId(file).catch(() => null);
  if (text === null) return id === null ? null : { id };
  return { ...text, id };
}

async function sideText(side: TreeReader, file: string): Promise<string | null | { unread: string }> {
  try {
    return await side.read(file);
  } catch (err) {
    return { unread: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}
