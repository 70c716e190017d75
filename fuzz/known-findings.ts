/**
 * Open fuzz findings: failures the fuzzer found in a codec that its owner has not fixed yet. Each
 * is listed in docs/reliability.md and shows as a todo in test/unit/fuzz-crashes.test.ts. The
 * short fuzz run in the unit tests fails on any failure NOT listed here, so a new bug is caught at
 * once while a known one does not block unrelated work. Remove an entry when its fix lands.
 */
export interface KnownFinding {
  /** Short id used in the docs and the todo test name. */
  id: string;
  format: string;
  /** Matched against the failure signature (`format|outcome|message|frame`). */
  pattern: RegExp;
  summary: string;
}

export const KNOWN_FINDINGS: readonly KnownFinding[] = [
];

/** The known finding a signature belongs to, if any. */
export function knownFinding(signature: string): KnownFinding | undefined {
  return KNOWN_FINDINGS.find((k) => k.pattern.test(signature));
}
