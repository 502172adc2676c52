// Spellings of a symbolic link's target beside a changed queue file, shared by the CLI's and the
// App's tests (test/cli/link-spellings.test.ts, test/github/link-spellings.test.ts).

/** The changed queue file every spelling is about. */
export const QUEUES = 'clusters/prod/queues.yaml';

export interface Spelling {
  /** Where the link stands. */
  link: string;
  /** What it names, as written in the link. */
  target: string;
  /** The path through the link that reads the changed file; null when no file is read through it. */
  reads: string | null;
}

const fileLink = (target: string, reads: boolean): Spelling => ({
  link: 'clusters/mirror/queues.yaml',
  target,
  reads: reads ? 'clusters/mirror/queues.yaml' : null,
});

/** A link standing for the file itself. A trailing `/` (or `/.`) asks for a directory: a checkout reads nothing. */
export const FILE_LINKS: Spelling[] = [
  fileLink('../prod/queues.yaml', true),
  fileLink('./../prod/queues.yaml', true),
  fileLink('../prod//queues.yaml', true),
  fileLink('../prod/./queues.yaml', true),
  fileLink('.././prod/../prod/queues.yaml', true),
  fileLink('../../clusters/prod/queues.yaml', true),
  fileLink('../prod/queues.yaml/', false),
  fileLink('../prod/queues.yaml//', false),
  fileLink('../prod/queues.yaml/.', false),
  fileLink('/clusters/prod/queues.yaml', false),
  fileLink('../../../clusters/prod/queues.yaml', false), // hostile link target: data, never read
  fileLink('../../../../etc/queues.yaml', false), // hostile link target: data, never read
];

const dirLink = (target: string, reads: boolean): Spelling => ({
  link: 'clusters/mirror',
  target,
  reads: reads ? 'clusters/mirror/queues.yaml' : null,
});

/** A link standing for the file's directory: a trailing `/` is the same directory. */
export const DIR_LINKS: Spelling[] = [
  dirLink('prod', true),
  dirLink('prod/', true),
  dirLink('./prod/', true),
  dirLink('prod//', true),
  dirLink('prod/.', true),
  dirLink('../clusters/prod/', true),
  dirLink('/clusters/prod/', false),
  dirLink('../../clusters/prod', false),
];

/** How many changes the review counts: the file, and the link when a file is read through it. */
export function linkedCount(s: Spelling): number {
  return s.reads === null ? 1 : 2;
}
