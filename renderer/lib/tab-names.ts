/**
 * What a document tab shows, so no two tabs read the same (as code editors do):
 *
 * - Two open files with the same name get the shortest folder suffix that tells them apart
 *   (`a/models` and `b/models`, not two `models`).
 * - A long name is shortened in the middle, keeping its start and its end (where names sharing a
 *   long prefix differ: `skeleton_warr…axe_walk.animation`), not cut at the end where every
 *   name with the same prefix looks alike; when two shortened names would still read the same,
 *   the part where they differ is the part shown.
 */
export interface TabSource {
  id: string;
  fileName: string;
  path: string;
}
export interface TabName {
  /** The name as shown (the whole file name when it is short enough). */
  short: string;
  /** The distinguishing folder suffix, or '' when no other open file has this name. */
  folder: string;
}

/** Longest name shown whole; longer ones are shortened in the middle to this many characters. */
export const TAB_NAME_MAX = 28;
const HEAD = 10;

function parents(path: string): string[] {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.slice(0, -1);
}

/** The shortest trailing run of parent folders unique among `paths` (for `self`). */
function distinguishingFolder(self: string, others: string[]): string {
  const mine = parents(self);
  const theirs = others.map(parents);
  for (let k = 1; k <= mine.length; k++) {
    const suffix = mine.slice(-k).join('/');
    if (theirs.every((p) => p.slice(-k).join('/') !== suffix)) {
      return k < mine.length ? `…/${suffix}` : suffix;
    }
  }
  return mine.join('/');
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function middle(name: string): string {
  if (name.length <= TAB_NAME_MAX) return name;
  return `${name.slice(0, HEAD)}…${name.slice(name.length - (TAB_NAME_MAX - HEAD - 1))}`;
}

export function tabNames(docs: readonly TabSource[]): Map<string, TabName> {
  const out = new Map<string, TabName>();
  const shorts = docs.map((d) => middle(d.fileName));
  docs.forEach((d, i) => {
    const sameName = docs.filter((o) => o.id !== d.id && o.fileName.toLowerCase() === d.fileName.toLowerCase());
    const folder = sameName.length ? distinguishingFolder(d.path, sameName.map((o) => o.path)) : '';
    let short = shorts[i]!;
    // Different names that still shorten alike: show where this one differs from the others.
    const clash = docs.filter((o, j) => j !== i && o.fileName !== d.fileName && shorts[j] === short);
    if (clash.length) {
      const at = Math.max(...clash.map((o) => commonPrefix(o.fileName, d.fileName)));
      const from = Math.max(HEAD, at - 3);
      const rest = d.fileName.slice(from);
      const room = TAB_NAME_MAX - HEAD - 2;
      short = `${d.fileName.slice(0, HEAD - 4)}…${rest.length > room ? `${rest.slice(0, room)}…` : rest}`;
    }
    out.set(d.id, { short, folder });
  });
  return out;
}
