/** A foldable part of the comment: the `<summary>` line (markdown-safe) and its body. */
export interface Section {
  summary: string;
  body: string;
}
