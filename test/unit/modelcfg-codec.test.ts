/**
 * model.cfg as a document of its own (the `p3d-modelcfg` codec): found by its content, the class
 * tree and the inspector's values, byte-identical saves of untouched files, in-place edits that
 * keep comments and layout, refusals for values a macro or an include wrote, errors with the
 * file's line, column and byte offset, and the checks a config allows without its model.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { detectFormat, formatById } from '../../shared/formats/registry.ts';
import { applyCommand, type EditCommand } from '../../shared/model/commands.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { modelCfgCodec, type ModelCfgFile } from '../../shared/formats/p3d/modelcfg/codec.ts';
import { probeModelCfg } from '../../shared/formats/p3d/modelcfg/probe.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

const SRC = `// doors of a test house
#define DOOR(n) class Door##n: Door { selection = door##n; axis = door##n##_axis; }
#include "bones.hpp"
class CfgModels
{
\tclass Default { sections[] = {}; };
\tclass house: Default
\t{
\t\tskeletonName = "house_sk"; /* the skeleton above */
\t\tsections[] = {"glass", "door1"};
\t\tclass Animations
\t\t{
\t\t\tclass Door
\t\t\t{
\t\t\t\ttype = "rotation";
\t\t\t\tsource = "door";
\t\t\t\tminValue = 0;   // closed
\t\t\t\tmaxValue = 1;
\t\t\t\tangle0 = 0;
\t\t\t\tangle1 = rad 90;
\t\t\t};
\t\t\tDOOR(1);
\t\t};
\t};
};
`;
const BONES = `class CfgSkeletons { class house_sk { isDiscrete = 1; skeletonBones[] = {"door1", "", "door2", "door3"}; }; };\n`;
const readInclude = (path: string): { name: string; text: string } | undefined => (path === 'bones.hpp' ? { name: 'bones.hpp', text: BONES } : undefined);

function open(text = SRC): ModelCfgFile {
  return modelCfgCodec.decode(enc(text), { fileName: 'model.cfg', readInclude });
}

/** The outline node whose names, from the root down, are `names`. */
function nodeAt(root: OutlineNode, ...names: string[]): OutlineNode {
  let n = root;
  for (const name of names) {
    const next = n.children?.find((c) => c.name === name);
    if (!next) throw new Error(`no ${name} under ${n.name}: ${n.children?.map((c) => c.name).join(', ')}`);
    n = next;
  }
  return n;
}

function fieldOf(file: ModelCfgFile, classNames: string[], field: string) {
  const node = nodeAt(modelCfgCodec.outline(file), ...classNames);
  const f = modelCfgCodec.inspect(file, node.path)?.fields.find((x) => x.name === field);
  if (!f) throw new Error(`no field ${field} in ${classNames.join('/')}`);
  return f;
}

function edit(file: ModelCfgFile, cmd: EditCommand): EditCommand {
  const refused = modelCfgCodec.checkEdit!(file, cmd);
  if (refused) throw new Error(refused);
  return applyCommand(file, cmd);
}

describe('model.cfg is found by its content', () => {
  it('probes config text that names CfgModels / CfgSkeletons or includes a file, and nothing else', () => {
    expect(probeModelCfg(enc(SRC))).toBe(true);
    expect(probeModelCfg(enc('#include "cfgModels.hpp"\n'))).toBe(true);
    expect(probeModelCfg(enc('CLASS CFGSKELETONS {};'))).toBe(true);
    expect(probeModelCfg(enc('hello world, class act'))).toBe(false);
    expect(probeModelCfg(enc('class CfgPatches {};'))).toBe(false);
    expect(probeModelCfg(new Uint8Array([0x4d, 0x4c, 0x4f, 0x44, 0x01, 0x01, 0, 0]))).toBe(false);
    expect(probeModelCfg(new Uint8Array(0))).toBe(false);
    expect(detectFormat(enc(SRC), 'model.cfg')?.id).toBe('p3d-modelcfg');
  });
});

describe('the class tree and the inspector', () => {
  it('shows classes as nodes (included and macro-made ones too) and values as fields', () => {
    const file = open();
    const outline = modelCfgCodec.outline(file);
    expect(outline.children!.map((c) => c.name)).toEqual(['CfgSkeletons', 'CfgModels']);
    expect(nodeAt(outline, 'CfgSkeletons', 'house_sk').kind).toBe('skeleton');
    const anims = nodeAt(outline, 'CfgModels', 'house', 'Animations');
    expect(anims.children!.map((c) => `${c.name}${c.label ?? ''}`)).toEqual(['Door', 'Door1: Door']);
    expect(nodeAt(outline, 'CfgModels', 'house').label).toBe(': Default');
    const angle1 = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'angle1');
    expect(angle1).toMatchObject({ kind: 'string', value: 'rad 90' });
    expect(angle1.readonly).toBeUndefined();
    // Its span is the value's own bytes in the file.
    expect(dec(enc(SRC).subarray(...angle1.span!))).toBe('rad 90');
    expect(fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'minValue')).toMatchObject({ kind: 'f64', value: 0 });
    expect(fieldOf(file, ['CfgModels', 'house'], 'sections[][1]')).toMatchObject({ kind: 'string', value: 'door1' });
    const macro = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door1'], 'selection');
    expect(macro).toMatchObject({ value: 'door1', readonly: true });
    expect(macro.note).toMatch(/macro.*used at model\.cfg:22/);
    const included = fieldOf(file, ['CfgSkeletons', 'house_sk'], 'isDiscrete');
    expect(included).toMatchObject({ value: 1, readonly: true });
    expect(included.note).toMatch(/bones\.hpp/);
  });
});

describe('saving', () => {
  it('gives back the bytes read when nothing was edited, with or without a BOM, UTF-8 or not', () => {
    for (const bytes of [enc(SRC), enc('\ufeff' + SRC), new Uint8Array([...enc('class CfgModels { class a { x = "'), 0xe9, ...enc('"; }; };\r\n')])]) {
      const file = modelCfgCodec.decode(bytes, { fileName: 'model.cfg', readInclude });
      expect(modelCfgCodec.encode(file)).toEqual(bytes);
    }
  });

  it('writes an edited value in place and keeps comments, layout, macros and every other value', () => {
    const file = open();
    const angle1 = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'angle1');
    const maxValue = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'maxValue');
    const section = fieldOf(file, ['CfgModels', 'house'], 'sections[][0]');
    const undo = [
      edit(file, { op: 'set', path: angle1.path, value: 'rad 120' }),
      edit(file, { op: 'set', path: maxValue.path, value: 2.5 }),
      edit(file, { op: 'set', path: section.path, value: 'glass "old"' }),
    ];
    const saved = dec(modelCfgCodec.encode(file));
    expect(saved).toBe(SRC.replace('rad 90', 'rad 120').replace('maxValue = 1;', 'maxValue = 2.5;').replace('{"glass", "door1"}', '{"glass ""old""", "door1"}'));
    // The saved text reads back with the new values.
    const again = modelCfgCodec.decode(enc(saved), { fileName: 'model.cfg', readInclude });
    expect(fieldOf(again, ['CfgModels', 'house', 'Animations', 'Door'], 'maxValue').value).toBe(2.5);
    expect(fieldOf(again, ['CfgModels', 'house'], 'sections[][0]').value).toBe('glass "old"');
    // Undoing every edit gives the file back byte for byte.
    for (const inv of undo.reverse()) applyCommand(file, inv);
    expect(dec(modelCfgCodec.encode(file))).toBe(SRC);
  });

  it('refuses values written by a macro or an included file, naming where to edit', () => {
    const file = open();
    const macro = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door1'], 'axis');
    expect(modelCfgCodec.checkEdit!(file, { op: 'set', path: macro.path, value: 'x' })).toMatch(/macro \(or __EVAL\) used at model\.cfg:22: edit it there/);
    const included = fieldOf(file, ['CfgSkeletons', 'house_sk'], 'skeletonBones[][0]');
    expect(modelCfgCodec.checkEdit!(file, { op: 'set', path: included.path, value: 'x' })).toMatch(/bones\.hpp:1/);
    expect(modelCfgCodec.checkEdit!(file, { op: 'remove', path: ['root', 'entries', 0] })).toMatch(/in place/);
    const max = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'maxValue');
    expect(modelCfgCodec.checkEdit!(file, { op: 'set', path: max.path, value: Number.NaN })).toMatch(/finite/);
    expect(modelCfgCodec.checkEdit!(file, { op: 'set', path: max.path, value: 'a\nb' })).toMatch(/line break/);
  });
});

describe('computed and mixed values', () => {
  it('an __EVAL value is read-only; an array item beside a macro-written one is edited alone', () => {
    const text = '#define SEL "door2"\nclass CfgModels { class m { sections[] = {"glass", SEL, "door1"}; angle0 = __EVAL(-90 / 180 * 3.14159); }; };\n';
    const file = open(text);
    const angle0 = fieldOf(file, ['CfgModels', 'm'], 'angle0');
    expect(angle0.value).toBeCloseTo(-Math.PI / 2, 4);
    expect(angle0.readonly).toBe(true);
    expect(modelCfgCodec.checkEdit!(file, { op: 'set', path: angle0.path, value: 1 })).toMatch(/__EVAL\) used at model\.cfg:2/);
    expect(fieldOf(file, ['CfgModels', 'm'], 'sections[][1]')).toMatchObject({ value: 'door2', readonly: true });
    edit(file, { op: 'set', path: fieldOf(file, ['CfgModels', 'm'], 'sections[][2]').path, value: 'door3' });
    expect(dec(modelCfgCodec.encode(file))).toBe(text.replace('"door1"', '"door3"'));
  });
});

describe('errors and checks', () => {
  it('a file that does not parse is a DecodeError at its byte offset, line and column', () => {
    const bad = 'class CfgModels\n{\n  class a { x = 1 }\n};\n';
    let err: unknown;
    try {
      modelCfgCodec.decode(enc(bad), { fileName: 'model.cfg' });
    } catch (e) {
      err = e;
    }
    expect(isDecodeError(err)).toBe(true);
    const e = err as { offset: number; path: string; detail: string };
    expect(e.path).toMatch(/^model\.cfg:3:\d+$/);
    expect(e.offset).toBe(bad.indexOf('\n', bad.indexOf('\n') + 1) + Number(e.path.split(':')[2]));
    // An include without a reader is an error too, never a crash.
    expect(() => modelCfgCodec.decode(enc(SRC), { fileName: 'model.cfg' })).toThrow(/bones\.hpp/);
  });

  it('checks skeletons and animations as far as the config alone says, each at its line', () => {
    const text = [
      'class CfgSkeletons { class sk { skeletonBones[] = {',
      '  "arm", "hand",',
      '  "hand", ""',
      '}; }; };',
      'class CfgModels { class m { skeletonName = "sk"; class Animations { class a { type = "rotation"; selection = "leg"; axis = "ax"; }; }; }; class n { skeletonName = "none"; }; };',
    ].join('\n');
    const problems = modelCfgCodec.validate(modelCfgCodec.decode(enc(text), { fileName: 'model.cfg' }));
    const text2 = problems.map((p) => `${p.where} ${p.message}`);
    expect(text2).toContainEqual(expect.stringMatching(/^model\.cfg:2:\d+ bone arm: parent hand is declared after it/));
    expect(text2).toContainEqual(expect.stringMatching(/^model\.cfg:5:\d+ m: animation a: selection leg is not a bone of sk/));
    expect(text2).toContainEqual(expect.stringMatching(/^model\.cfg:5:\d+ n: skeletonName "none" is not in CfgSkeletons/));
    // An edit that breaks the text is one problem at its line, not a crash.
    const file = open();
    const max = fieldOf(file, ['CfgModels', 'house', 'Animations', 'Door'], 'angle1');
    edit(file, { op: 'set', path: max.path, value: 'rad (' });
    expect(modelCfgCodec.validate(file).map((p) => p.severity)).toContain('error');
  });
});

const corpusCfgs = hasCorpus
  ? ['modelcfg', 'rtm'].flatMap((sub) => {
      const dir = join(corpusDir, sub);
      if (!existsSync(dir)) return [];
      const out: string[] = [];
      const walk = (d: string): void => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(d, e.name));
          else if (e.name.toLowerCase().endsWith('.cfg')) out.push(join(d, e.name));
        }
      };
      walk(dir);
      return out;
    })
  : [];

describe.skipIf(corpusCfgs.length === 0)('every corpus model.cfg (skipped without ../shared/corpus)', () => {
  it.each(corpusCfgs)('%s: found by content, saved byte-identical, every editable value writable in place', (path) => {
    const bytes = new Uint8Array(readFileSync(path));
    const codec = detectFormat(bytes, path);
    expect(codec?.id).toBe('p3d-modelcfg');
    const file = formatById('p3d-modelcfg').decode(bytes, { fileName: 'model.cfg' }) as ModelCfgFile;
    expect(modelCfgCodec.encode(file)).toEqual(bytes);
    const outline = modelCfgCodec.outline(file);
    expect(outline.children!.length).toBeGreaterThan(0);
    expect(modelCfgCodec.validate(file).filter((p) => p.severity === 'error')).toEqual([]);
    // Every number field written in the file itself: +1 lands in its own bytes only.
    let edited = 0;
    const visit = (n: OutlineNode): void => {
      for (const f of modelCfgCodec.inspect(file, n.path)?.fields ?? []) {
        if (f.readonly || typeof f.value !== 'number' || !f.span) continue;
        const inv = edit(file, { op: 'set', path: f.path, value: (f.value as number) + 1 });
        const out = modelCfgCodec.encode(file);
        const text = dec(bytes);
        const written = String((f.value as number) + 1);
        expect(dec(out)).toBe(text.slice(0, f.span[0]) + written + text.slice(f.span[1]));
        applyCommand(file, inv);
        edited++;
      }
      n.children?.forEach(visit);
    };
    visit(outline);
    expect(edited).toBeGreaterThan(0);
    expect(modelCfgCodec.encode(file)).toEqual(bytes);
  });
});
