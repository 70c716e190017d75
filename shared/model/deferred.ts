/**
 * Deferred fields: a document field whose value is made on its first read.
 *
 * A decoder that has already checked the bytes behind a large array, and charged the memory
 * budget for it, may leave the array to be built when something first reads it: `info`,
 * `roundtrip` and saving an untouched node never do, so they never pay for it (MLOD's face columns
 * are 80% of a decoded file and come from variable-length records, so they cannot be views of
 * the input). To every reader the field is an ordinary one: the first read builds the value and
 * turns the field into a plain data property (enumerable, writable), so spreading, cloning,
 * `Object.entries`, JSON and the edit commands all see the value; assigning before any read just
 * stores the new value, and `make` is never called.
 *
 * `make` must be deterministic and must not fail: it reads bytes the decoder checked, which
 * nothing may change while the document lives (the same rule as `$raw`).
 */
export function deferField<T extends object, K extends keyof T & string>(obj: T, key: K, make: () => T[K], length?: number): void {
  if (length !== undefined) {
    let m = lengths.get(obj);
    if (!m) lengths.set(obj, (m = new Map()));
    m.set(key, length);
  }
  const settle = (value: T[K]): void => {
    lengths.get(obj)?.delete(key);
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get(): T[K] {
      const value = make();
      settle(value);
      return value;
    },
    set(value: T[K]) {
      settle(value);
    },
  });
}

/** Lengths given to {@link deferField} for fields not made yet. */
const lengths = new WeakMap<object, Map<string, number>>();

/**
 * The length of `obj[key]` (an array): for a deferred field not made yet, the length it was
 * deferred with, without making it (`info` counts triangles this way); otherwise the value's.
 */
export function lengthOf(obj: object, key: string): number {
  const n = lengths.get(obj)?.get(key);
  if (n !== undefined && isDeferred(obj, key)) return n;
  return ((obj as Record<string, unknown>)[key] as ArrayLike<unknown> | undefined)?.length ?? 0;
}

/** True while `obj[key]` is a deferred field that has not been read or assigned yet. */
export function isDeferred(obj: object, key: string): boolean {
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d !== undefined && d.get !== undefined;
}

/**
 * Calls `fn` with every own enumerable value of `obj` (and its key), except deferred fields that
 * were not read yet, which it leaves unmade: for walks that look for something no deferred value
 * holds (`$raw`, views of the input). Elements of plain arrays are never deferred.
 */
export function forEachMadeValue(obj: object, fn: (value: unknown, key: string) => void): void {
  if (Array.isArray(obj)) {
    for (let i = 0; i < obj.length; i++) fn(obj[i], String(i));
    return;
  }
  for (const k of Object.keys(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, k)!;
    if (!d.get) fn(d.value, k);
  }
}
