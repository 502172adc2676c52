/**
 * How many bytes of files one review reads: the changed files and those read beside them (values
 * files, modules, bases, catalogs). GitHub's size limit bounds each file, not a pull request: 3,000
 * files each just under it would be gigabytes downloaded, held and parsed by one review while other
 * pull requests wait. Past the budget, a file that may be applied is not followed, and named with
 * the budget; the review still concludes.
 */

/** The default, far above a usual pull request (a few hundred kilobytes of manifests). */
const DEFAULT_REVIEW_READ_MB = 64;

const MB = 1024 * 1024;

/** The operator's budget: `GPU_JUSTIFY_REVIEW_READ_MB`, a positive number of megabytes, else the default; in bytes. */
function reviewReadBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env['GPU_JUSTIFY_REVIEW_READ_MB'];
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Math.floor((Number.isFinite(value) && value > 0 ? value : DEFAULT_REVIEW_READ_MB) * MB);
}

/** One review's budget of bytes read; each side of each path is charged once, by GitHub's size. */
export class ReadBudget {
  #spent = 0;
  #closed = false;
  readonly #charged = new Map<string, boolean>();

  constructor(readonly maxBytes: number = reviewReadBytes()) {}

  get spent(): number {
    return this.#spent;
  }

  /**
   * Whether `key` (a side and a path) may be read at `bytes`: taken from the budget the first time
   * it is asked, and answered the same way after. Once a file does not fit, the budget is spent:
   * no file asked after it is read either, small or not, so what is left out is every file past
   * that point (which ones depends on the order of reads; each is named).
   */
  take(key: string, bytes: number): boolean {
    const known = this.#charged.get(key);
    if (known !== undefined) return known;
    const fits = !this.#closed && this.#spent + bytes <= this.maxBytes;
    if (fits) this.#spent += bytes;
    else this.#closed = true;
    this.#charged.set(key, fits);
    return fits;
  }

  /**
   * Whether `key` is refused before its size is known: once the budget is spent, a file not asked
   * before is not even asked of GitHub (whose answer for a file carries its text).
   */
  refusesUnasked(key: string): boolean {
    return this.#closed && !this.#charged.has(key);
  }

  /** Why a file not asked of GitHub was not read: the budget was spent before it. */
  spentRefusal(): string {
    return (
      `not read: this review's read budget of ${(this.maxBytes / MB).toLocaleString('en-US')} MB ` +
      "(GPU_JUSTIFY_REVIEW_READ_MB) was spent on the pull request's other files; what reads it was not followed"
    );
  }

  /**
   * Why a file of `bytes` bytes was not read: a changed file (`capacity`), whose GPU capacity was
   * not checked, or a file read beside the changed ones, which whatever reads it did not follow.
   */
  refusal(bytes: number, capacity = true): string {
    return (
      `not read: its ${bytes.toLocaleString('en-US')} bytes are past this review's read budget of ` +
      `${(this.maxBytes / MB).toLocaleString('en-US')} MB (GPU_JUSTIFY_REVIEW_READ_MB), spent on the pull request's other files; ` +
      (capacity ? 'its GPU capacity was not checked' : 'what reads it was not followed')
    );
  }
}
