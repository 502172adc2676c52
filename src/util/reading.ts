/** One reading of a text: its text, and for each of its UTF-16 units the original span `[start, end)`. */
export interface Reading {
  text: string;
  start: Int32Array;
  end: Int32Array;
  /** The text as written or plainly decoded: a secret may be found split over two of its lines. */
  lines?: boolean;
}
