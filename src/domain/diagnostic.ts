/** Something a reader should know about an input: where it is and what is wrong. */
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  file: string;
  /** 1-based line; null when the problem has no single line (a missing file, say). */
  line: number | null;
  severity: Severity;
  message: string;
}

export function diagnostic(file: string, line: number | null, severity: Severity, message: string): Diagnostic {
  return { file, line, severity, message };
}
