import type { NodePath } from './path.ts';

export type Severity = 'error' | 'warning' | 'info';

/** One finding of `validate`: a broken spec rule, a dangling reference, a suspicious value. */
export interface Problem {
  severity: Severity;
  message: string;
  /** Display path, e.g. `LOD1/PXL1/PXI1[0]/items[3]`. */
  where: string;
  /** Document path for selecting the node in the editor. */
  path?: NodePath;
  /** Byte offset in the file, when the node came from one. */
  offset?: number;
}

export const hasErrors = (ps: readonly Problem[]): boolean => ps.some((p) => p.severity === 'error');
