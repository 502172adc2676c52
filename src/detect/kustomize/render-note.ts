import type { Severity } from '../../domain/index.js';

/** What rendering says about one line of a kustomization or patch: the render, its patches and its replicas all add notes. */
export interface RenderNote {
  file: string;
  line: number;
  severity: Severity;
  message: string;
}
