/** `file:line`, or the file alone when the line is not known. */
export function ref(file: string, line: number | null): string {
  return line === null ? file : `${file}:${line}`;
}
