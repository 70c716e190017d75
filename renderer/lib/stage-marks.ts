/**
 * Timing marks of the preview path (`lodsmith:scene:request`, `lodsmith:invoke:doc:scene:received`,
 * `...:decoded`, `lodsmith:scene:objects`, `lodsmith:scene:built`, `lodsmith:scene:drawn`), read by
 * the benchmark's preview hook and visible in the browser's performance panel. Each name keeps
 * only its latest mark, so a long session does not pile them up.
 */
export function markStage(stage: string): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  const name = `lodsmith:${stage}`;
  try {
    performance.clearMarks(name);
    performance.mark(name);
  } catch {
    /* timing must never break the app */
  }
}
