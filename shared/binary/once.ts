/**
 * `make()` on the first call, the same value on every later call. For tables and objects a module
 * needs only sometimes: made when first asked for, not when the module loads (what the CLI's
 * start-up fills V8's young heap with: docs/performance.md, "Start-up"), or made once for several
 * deferred fields that share the work (shared/model/deferred.ts).
 */
export function madeOnce<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
