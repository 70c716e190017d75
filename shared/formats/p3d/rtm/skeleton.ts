/**
 * A small reader for the `CfgSkeletons` class of an Arma `model.cfg`: enough to find a skeleton's
 * bone hierarchy (`SkeletonBones[] = {"bone", "parent", ...}`, with `skeletonInherit` and class
 * inheritance) for composing BMTR animations. It reads the config syntax (classes, `name = value;`,
 * arrays, comments) and skips preprocessor lines; macros are not expanded. A full model.cfg
 * parser (evaluated, with the preprocessor) can take its place behind {@link cfgSkeleton}.
 */
import type { SkeletonBone } from './pose.ts';

interface CfgClass {
  name: string;
  base?: string;
  values: Map<string, string | string[]>;
  classes: Map<string, CfgClass>;
  /** False for a declaration without a body (`class Base;`): it names a class defined elsewhere. */
  defined: boolean;
}

export class CfgError extends Error {
  override readonly name = 'CfgError';
}

/** Tokens: strings (without quotes), words, and the punctuation `{ } ; : = , [ ]`. */
function tokenize(text: string): { t: string; s: boolean; line: number }[] {
  const out: { t: string; s: boolean; line: number }[] = [];
  let i = 0, line = 1;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < n && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const end = e < 0 ? n : e + 2;
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end;
      continue;
    }
    if (c === '#') { while (i < n && text[i] !== '\n') i += text[i] === '\\' && text[i + 1] === '\n' ? 2 : 1; continue; }
    if (c === '"') {
      let s = '';
      i++;
      for (;;) {
        if (i >= n) throw new CfgError(`line ${line}: a string is not closed`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') { s += '"'; i += 2; continue; }
          i++;
          break;
        }
        if (text[i] === '\n') line++;
        s += text[i++];
      }
      out.push({ t: s, s: true, line });
      continue;
    }
    if ('{};:=,[]'.includes(c)) { out.push({ t: c, s: false, line }); i++; continue; }
    let w = '';
    while (i < n && !' \t\r\n{};:=,[]"'.includes(text[i]!) && !(text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))) w += text[i++];
    out.push({ t: w, s: false, line });
  }
  return out;
}

/** Parses the whole config into its class tree (class names keyed lower case). */
export function parseCfg(text: string): CfgClass {
  const toks = tokenize(text);
  let p = 0;
  const peek = (): string | undefined => toks[p]?.t;
  const where = (): string => `line ${toks[Math.min(p, toks.length - 1)]?.line ?? 1}`;
  const expect = (t: string): void => {
    if (toks[p]?.t !== t || toks[p]?.s) throw new CfgError(`${where()}: expected "${t}"${toks[p] ? `, found "${toks[p]!.t}"` : ' before the end'}`);
    p++;
  };
  const value = (): string | string[] => {
    if (peek() === '{' && !toks[p]!.s) {
      p++;
      const items: string[] = [];
      while (!(peek() === '}' && !toks[p]!.s)) {
        if (p >= toks.length) throw new CfgError(`${where()}: an array is not closed`);
        if (peek() === ',' && !toks[p]!.s) { p++; continue; }
        const v = value();
        if (Array.isArray(v)) items.push(...v);
        else items.push(v);
      }
      p++;
      return items;
    }
    // A bare value runs to the `;` (or `,`/`}` inside arrays).
    let v = '';
    while (p < toks.length && (toks[p]!.s || ![';', ',', '}'].includes(toks[p]!.t))) v += toks[p++]!.t;
    return v;
  };
  const body = (cls: CfgClass, closing: boolean): void => {
    while (p < toks.length) {
      const t = toks[p]!;
      if (!t.s && t.t === '}') {
        if (!closing) throw new CfgError(`${where()}: "}" without a class`);
        p++;
        if (peek() === ';') p++;
        return;
      }
      if (!t.s && t.t === ';') { p++; continue; }
      if (!t.s && t.t.toLowerCase() === 'class') {
        p++;
        const name = toks[p++]?.t ?? '';
        const c: CfgClass = { name, values: new Map(), classes: new Map(), defined: false };
        if (peek() === ':') { p++; c.base = toks[p++]?.t; }
        if (peek() === '{') { p++; c.defined = true; body(c, true); } else if (peek() === ';') p++;
        cls.classes.set(name.toLowerCase(), c);
        continue;
      }
      if (!t.s && t.t.toLowerCase() === 'delete') { p += 2; continue; }
      let key = t.t;
      p++;
      if (peek() === '[') { p++; expect(']'); key += '[]'; }
      if (peek() === '+') p++;
      expect('=');
      cls.values.set(key.toLowerCase(), value());
      if (peek() === ';') p++;
    }
    if (closing) throw new CfgError(`${where()}: a class is not closed`);
  };
  const root: CfgClass = { name: '', values: new Map(), classes: new Map(), defined: true };
  body(root, false);
  return root;
}

/** Names of the skeletons a model.cfg defines. */
export function cfgSkeletonNames(text: string): string[] {
  const sk = parseCfg(text).classes.get('cfgskeletons');
  return sk ? [...sk.classes.values()].filter((c) => c.defined).map((c) => c.name) : [];
}

/**
 * The bones of skeleton `name` (case-insensitive) of a model.cfg, parents before children as
 * written: the inherited skeleton's bones (`skeletonInherit`) first, then its own. Without a
 * name, the only skeleton there is. Throws {@link CfgError} naming what is there when it is not.
 */
export function cfgSkeleton(text: string, name?: string): { name: string; bones: SkeletonBone[] } {
  const sk = parseCfg(text).classes.get('cfgskeletons');
  const all = sk ? [...sk.classes.values()].filter((c) => c.defined) : [];
  if (all.length === 0) throw new CfgError('the model.cfg defines no skeleton (class CfgSkeletons)');
  let cls: CfgClass | undefined;
  if (name === undefined || name === '') {
    if (all.length > 1) throw new CfgError(`the model.cfg defines ${all.length} skeletons; name one: ${all.map((c) => c.name).join(', ')}`);
    cls = all[0];
  } else cls = sk!.classes.get(name.toLowerCase());
  if (!cls) throw new CfgError(`no skeleton "${name}" in the model.cfg (it defines ${all.map((c) => c.name).join(', ')})`);
  const seen = new Set<string>();
  const bonesOf = (c: CfgClass): SkeletonBone[] => {
    const key = c.name.toLowerCase();
    if (seen.has(key)) throw new CfgError(`skeleton ${c.name} inherits from itself`);
    seen.add(key);
    const lookup = (k: string): string | string[] | undefined => {
      for (let x: CfgClass | undefined = c, guard = 0; x && guard < 64; x = x.base ? sk!.classes.get(x.base.toLowerCase()) : undefined, guard++) {
        const v = x.values.get(k);
        if (v !== undefined) return v;
      }
      return undefined;
    };
    const inherit = lookup('skeletoninherit');
    const base = typeof inherit === 'string' && inherit ? sk!.classes.get(inherit.toLowerCase()) : undefined;
    if (typeof inherit === 'string' && inherit && !base) throw new CfgError(`skeleton ${c.name} inherits "${inherit}", which the model.cfg does not define`);
    const list = lookup('skeletonbones[]');
    const own: SkeletonBone[] = [];
    if (Array.isArray(list)) for (let i = 0; i + 1 < list.length; i += 2) own.push({ name: list[i]!, parent: list[i + 1]! });
    return [...(base ? bonesOf(base) : []), ...own];
  };
  return { name: cls.name, bones: bonesOf(cls) };
}
