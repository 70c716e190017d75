/**
 * Bulk re-pathing: every path a document names (texture, material, proxy model, surface...) that
 * starts with one folder prefix is rewritten to start with another, the rest of it kept as
 * written. Matching ignores case and treats `\` and `/` alike, as the game does, and a prefix
 * matches whole folder names only (`mymod\data` does not match `mymod\database`). A leading `\`
 * and a `proxy:` selection-name head stay as they were.
 *
 * The changes are planned as ordinary `set` edit commands, so a codec's edit check sees them and
 * the encoder rewrites only the records they touch: every other byte of the file stays as it was.
 */
import type { EditCommand } from './commands.ts';
import type { NodePath } from './path.ts';

export interface PathChange {
  path: NodePath;
  /** `lods/0/faces/textures/2`: the node path joined, for reports. */
  where: string;
  before: string;
  after: string;
}

const norm = (s: string): string => s.replace(/\//g, '\\').toLowerCase();

/** `from` without leading or trailing separators, as matching compares it. */
function cleanPrefix(p: string): string {
  return p.replace(/^[\\/]+/, '').replace(/[\\/]+$/, '');
}

/**
 * The rewritten string, or undefined when `value` does not start with the prefix. `value` may be
 * `proxy:\path\model.001` (a proxy selection's name): the path after `proxy:` is what matches.
 */
export function repathString(value: string, from: string, to: string): string | undefined {
  const f = cleanPrefix(from);
  if (!f) return undefined;
  const head = /^proxy:/i.exec(value)?.[0] ?? '';
  const rest = value.slice(head.length);
  const lead = /^[\\/]*/.exec(rest)![0];
  const body = rest.slice(lead.length);
  if (body.length < f.length || norm(body.slice(0, f.length)) !== norm(f)) return undefined;
  const after = body.slice(f.length);
  if (after !== '' && after[0] !== '\\' && after[0] !== '/') return undefined;
  const t = cleanPrefix(to);
  // An empty `to` removes the prefix (and the separator after it).
  const tail = t === '' ? after.replace(/^[\\/]/, '') : after;
  return head + lead + t + tail;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

/**
 * Every string field of the document that the prefix rewrites. Deferred fields (getters) and
 * `$` bookkeeping (spans, kept raw bytes) are not read: they hold numbers and bytes, never paths.
 */
export function planRepath(doc: object, from: string, to: string): PathChange[] {
  const out: PathChange[] = [];
  const visit = (node: unknown, path: NodePath): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        if (typeof v === 'string') check(v, [...path, i]);
        else if (isPlain(v)) visit(v, [...path, i]);
      });
      return;
    }
    if (!isPlain(node)) return;
    for (const key of Object.keys(node)) {
      if (key.startsWith('$')) continue;
      const d = Object.getOwnPropertyDescriptor(node, key);
      if (!d || !('value' in d)) continue;
      const v = d.value as unknown;
      if (typeof v === 'string') check(v, [...path, key]);
      else if (Array.isArray(v) || isPlain(v)) visit(v, [...path, key]);
    }
  };
  const check = (v: string, path: NodePath): void => {
    const after = repathString(v, from, to);
    if (after !== undefined && after !== v) out.push({ path, where: path.join('/'), before: v, after });
  };
  visit(doc, []);
  return out;
}

/**
 * What the editor's Find and replace paths shows and sends: the changes, and one batch command
 * (one undo step) making them, or null when nothing starts with `from`.
 */
export function repathAnswer(doc: object, from: string, to: string): { changes: { where: string; before: string; after: string }[]; command: EditCommand | null } {
  const plan = planRepath(doc, from, to);
  const changes = plan.map((c) => ({ where: c.where, before: c.before, after: c.after }));
  if (plan.length === 0) return { changes, command: null };
  const label = `Replace paths ${from} -> ${to} (${plan.length})`;
  return { changes, command: { op: 'batch', commands: repathCommands(plan), label } };
}

/** The edit commands that make the planned changes. */
export function repathCommands(changes: readonly PathChange[]): EditCommand[] {
  return changes.map((c) => ({ op: 'set', path: c.path, value: c.after, label: `Re-path ${c.before}` }));
}

export interface TextChange {
  /** Byte offset (of the text as Latin-1/UTF-8 bytes before any change) of the quoted string's first character. */
  offset: number;
  line: number;
  before: string;
  after: string;
}

/**
 * A text file's quoted strings (`texture = "mymod\data\x_co.paa";` in an .rvmat, a model.cfg)
 * rewritten by the prefix; everything outside the changed strings is kept character for
 * character.
 */
export function repathText(text: string, from: string, to: string): { text: string; changes: TextChange[] } {
  const changes: TextChange[] = [];
  const re = /"([^"\r\n]*)"/g;
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const after = repathString(m[1]!, from, to);
    if (after === undefined || after === m[1]) continue;
    const at = m.index + 1;
    out += text.slice(last, at) + after;
    last = at + m[1]!.length;
    changes.push({ offset: at, line: text.slice(0, at).split('\n').length, before: m[1]!, after });
  }
  return { text: out + text.slice(last), changes };
}
