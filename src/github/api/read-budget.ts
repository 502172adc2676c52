/**
 * How many bytes of changed files one review reads. GitHub's size limit bounds each file, not a
 * pull request: 3,000 files each just under it would be gigabytes downloaded, held and parsed by
 * one review while other pull requests wait. Past the budget, a changed file that may be applied
 * is not followed, and named with the budget; the review still concludes.
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

  /** Why a file of `bytes` bytes was not read. */
  refusal(bytes: number): string {
    return (
      `not read: its ${bytes.toLocaleString('en-US')} bytes are past this review's read budget of ` +
      `${(this.maxBytes / MB).toLocaleString('en-US')} MB (GPU_JUSTIFY_REVIEW_READ_MB), spent on the pull request's other files; ` +
      'its GPU capacity was not checked'
    );
  }
}
