import type { ChangeSet, TreeReader } from '../domain/files.js';
import { GpuJustifyError } from '../domain/errors.js';

/** How long one review may read and judge before it is stopped and concluded as not finished. */
const DEFAULT_REVIEW_DEADLINE_SECONDS = 300;

/** The operator's deadline: `GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS`, a positive number of seconds, else the default. */
function reviewDeadlineSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env['GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS'];
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_REVIEW_DEADLINE_SECONDS;
}

/**
 * A review that did not finish reading and judging the pull request within its deadline: it was
 * stopped (its worker terminated), and no verdict was reached. Says which file it read last, the
 * likeliest to be what held it.
 */
export class ReviewDeadlineError extends GpuJustifyError {
  override readonly kind = 'deadline';

  constructor(
    readonly seconds: number,
    readonly lastRead: string | null,
  ) {
    super(
      `the review did not finish within its deadline of ${seconds} s (GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS) and was stopped` +
        (lastRead === null ? ' before it read any file' : `; the last file it read was ${lastRead}`),
    );
    this.name = 'ReviewDeadlineError';
  }
}

/**
 * One review's deadline: its signal aborts, with a ReviewDeadlineError, `seconds` after it starts.
 * The reads of the pull request go through `track`, so the error can name the last file read.
 */
export class ReviewDeadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  #lastRead: string | null = null;

  constructor(readonly seconds: number = reviewDeadlineSeconds()) {
    this.#timer = setTimeout(() => this.#controller.abort(new ReviewDeadlineError(seconds, this.#lastRead)), seconds * 1000);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `work`, or the deadline's error as soon as it passes, whichever comes first; the timer is cleared after. */
  async race<T>(work: Promise<T>): Promise<T> {
    const { signal } = this;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason as Error);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } finally {
      clearTimeout(this.#timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** The change set with each read remembered, for the error's "last file read". */
  track(changes: ChangeSet): ChangeSet {
    const side = (reader: TreeReader): TreeReader => {
      const tracked: TreeReader = {
        label: reader.label,
        // Remembered when its text arrives: parsing follows at once, so when a parse holds the
        // review, the file last answered is the likeliest one it holds on.
        read: async (path) => {
          const text = await reader.read(path);
          this.#lastRead = path;
          return text;
        },
      };
      if (reader.list) tracked.list = reader.list.bind(reader);
      if (reader.dirs) tracked.dirs = reader.dirs.bind(reader);
      if (reader.notAFile) tracked.notAFile = reader.notAFile.bind(reader);
      if (reader.contentId) tracked.contentId = reader.contentId.bind(reader);
      if (reader.isDirectory) tracked.isDirectory = reader.isDirectory.bind(reader);
      return tracked;
    };
    return {
      base: side(changes.base),
      head: side(changes.head),
      changedPaths: () => changes.changedPaths(),
      ...(changes.repositories ? { repositories: changes.repositories } : {}),
    };
  }
}
