import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/formats/p3d/modelcfg/lexer.ts';
import { preprocess, type ReadInclude } from '../../shared/formats/p3d/modelcfg/preprocess.ts';
import { evaluate } from '../../shared/formats/p3d/modelcfg/expression.ts';
import { parseModelCfg, setValue, encodeModelCfg, decodeModelCfg } from '../../shared/formats/p3d/modelcfg/document.ts';
import { findModelClass, readModelCfg, skeletonOf } from '../../shared/formats/p3d/modelcfg/model.ts';

/** The expanded text, tokens joined by single spaces. */
const pp = (text: string, files: Record<string, string> = {}): string =>
  preprocess(text, { fileName: 'P:/a/model.cfg', readInclude: mapReader(files) }).tokens.map((t) => t.text).join(' ');

function mapReader(files: Record<string, string>): ReadInclude {
  return (path, from) => {
    const dir = from.replace(/[^/]*$/, '');
    const parts = (dir + path.replace(/\\/g, '/')).split('/');
    const norm: string[] = [];
    for (const p of parts) {
      if (p === '..') norm.pop();
      else if (p !== '.') norm.push(p);
    }
    const name = norm.join('/');
    const text = files[name];
    return text === undefined ? undefined : { name, text };
  };
}

function errorOf(f: () => unknown): ConfigError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('model.cfg preprocessor', () => {
  it('expands object-like macros', () => {
    expect(pp('#define ANGLE 1.4\nangle1 = ANGLE;')).toBe('angle1 = 1.4 ;');
  });

  it('expands macros with arguments, nested calls and parenthesised commas', () => {
    const src = '#define DOOR(n, a) class Door##n { angle1 = a; };\n#define TWICE(x) (x)*2\nDOOR(1, TWICE(f(1,2)))';
    expect(pp(src)).toBe('class Door1 { angle1 = ( f ( 1 , 2 ) ) * 2 ; } ;');
  });

  it('continues a #define over lines ending in a backslash', () => {
    expect(pp('#define A one \\\n two\nA')).toBe('one two');
  });

  it('stringizes with # and pastes with ##', () => {
    expect(pp('#define Q(x) #x\n#define SEL(a,b) a##_##b\nname = Q(door 1); s = SEL(door,axis);')).toBe('name = "door 1" ; s = door_axis ;');
  });

  it('takes #ifdef, #ifndef, #else and #endif, nested', () => {
    const src = '#define A\n#ifdef A\nyes1\n#ifndef B\nyes2\n#else\nno1\n#endif\n#else\nno2\n#endif\n#ifdef B\nno3\n#else\nyes3\n#endif';
    expect(pp(src)).toBe('yes1 yes2 yes3');
  });

  it('does not define or include inside a skipped branch', () => {
    expect(pp('#ifdef NOPE\n#define X 1\n#include "missing.hpp"\n#endif\nX')).toBe('X');
  });

  it('#undef removes a macro', () => {
    expect(pp('#define X 1\n#undef X\nX')).toBe('X');
  });

  it('evaluates __EVAL and __EXEC', () => {
    expect(pp('a = __EVAL(1 + 2 * 3);')).toBe('a = 7 ;');
    expect(pp('__EXEC(n = 4)\na = __EVAL(n * 0.5);')).toBe('a = 2 ;');
    expect(pp('#define DEG 90\na = __EVAL(rad DEG);')).toBe(`a = ${String(Number((Math.PI / 2).toPrecision(9)))} ;`);
  });

  it('includes files relative to the including file', () => {
    const files = { 'P:/a/inc/bones.hpp': '#include "../common.hpp"\nBONES', 'P:/a/common.hpp': '#define BONES "door1",""' };
    expect(pp('#include "inc\\bones.hpp"', files)).toBe('"door1" , ""');
    expect(pp('#include <inc/bones.hpp>', files)).toBe('"door1" , ""');
  });

  it('reports a missing include at the directive', () => {
    const e = errorOf(() => pp('class A {};\n  #include "nope.hpp"'));
    expect(e.line).toBe(2);
    expect(e.column).toBe(3);
    expect(e.detail).toMatch(/not found/);
  });

  it('refuses an include cycle', () => {
    const files = { 'P:/a/x.hpp': '#include "y.hpp"', 'P:/a/y.hpp': '#include "x.hpp"' };
    const e = errorOf(() => pp('#include "x.hpp"', files));
    expect(e.detail).toMatch(/includes itself/);
    expect(e.file).toBe('P:/a/y.hpp');
  });

  it('refuses a macro that expands to itself, directly or through another', () => {
    expect(errorOf(() => pp('#define A A\nA')).detail).toMatch(/A expands to itself/);
    expect(errorOf(() => pp('#define A B\n#define B x A\n\nA')).detail).toMatch(/expands to itself/);
    expect(errorOf(() => pp('#define F(x) F(x)\nF(1)')).detail).toMatch(/expands to itself/);
    // A function-like macro's own name without ( is not a call, and an argument may call it.
    expect(pp('#define F(x) x\nF(F(1)) F')).toBe('1 F');
  });

  it('bounds expansion that grows without recursion', () => {
    let src = '#define A0 x x x x x x x x x x\n';
    for (let k = 1; k <= 9; k++) src += `#define A${k} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1} A${k - 1}\n`;
    src += 'A9';
    expect(errorOf(() => pp(src)).detail).toMatch(/more than \d+ tokens/);
  });

  it('checks the number of macro arguments', () => {
    expect(errorOf(() => pp('#define F(a,b) a b\nF(1)')).detail).toMatch(/takes 2 argument/);
  });

  it('points at line and column of unterminated strings and comments', () => {
    const e = errorOf(() => pp('a = 1;\nb = "open;\n'));
    expect([e.line, e.column]).toEqual([2, 5]);
    expect(errorOf(() => pp('/* never closed')).detail).toMatch(/unterminated/);
  });

  it('refuses #else/#endif without #ifdef and #ifdef without #endif', () => {
    expect(errorOf(() => pp('#endif')).detail).toMatch(/without #ifdef/);
    expect(errorOf(() => pp('#ifdef A\nx')).detail).toMatch(/without #endif/);
  });
});

describe('model.cfg expressions', () => {
  it.each([
    ['rad 45', Math.PI / 4],
    ['-3.14159/2', -1.570795],
    ['rad 45 * 2', Math.PI / 2],
    ['(1 + 2) * 3', 9],
    ['1 + 2 * 3', 7],
    ['2 ^ 3', 8],
    ['deg pi', 180],
    ['-(rad 90)', -Math.PI / 2],
    ['10 % 4', 2],
    ['1e-3 * 1000', 1],
  ])('%s = %f', (text, value) => {
    expect(evaluate(text)).toBeCloseTo(value, 9);
  });

  it('refuses text that is not an expression', () => {
    expect(() => evaluate('door1')).toThrow(/unknown name/);
    expect(() => evaluate('1 +')).toThrow();
    expect(() => evaluate('('.repeat(500) + '1' + ')'.repeat(500))).toThrow(/nested deeper/);
  });
});

describe('model.cfg classes and values', () => {
  const cfg = `
class CfgSkeletons {
  class Base { isDiscrete = 1; skeletonInherit = ""; skeletonBones[] = {"root", ""}; };
  class Tank: Base { skeletonInherit = "Base"; skeletonBones[] = {"turret", "root", "gun", "turret"}; };
};
class CfgModels {
  class Default { sectionsInherit = ""; sections[] = {"a"}; skeletonName = ""; };
  class Vehicle: Default { sections[] += {"b"}; };
  class TANK_1: Vehicle {
    sectionsInherit = "Vehicle";
    sections[] = {"c"};
    skeletonName = "Tank";
    class Animations {
      class Turret { type = "rotationY"; source = "mainTurret"; selection = "turret"; axis = "turret_axis"; minValue = "rad -360"; maxValue = "rad 360"; angle0 = "rad -360"; angle1 = rad 360; };
      class Gun: Turret { type = "rotationX"; selection = "gun"; angle1 = -3.14159/2; minValue = -1; };
      class Hatch { type = "translation"; selection = "hatch"; offset1 = "0.5"; };
    };
  };
};`;

  it('reads inheritance, += arrays, skeletonInherit, sectionsInherit, string numbers and expressions', () => {
    const doc = parseModelCfg(cfg);
    const m = readModelCfg(doc);
    expect(m.problems).toEqual([]);
    const model = findModelClass(m, 'P:\\addon\\Tank_1.p3d')!;
    expect(model.name).toBe('TANK_1');
    expect(model.sections).toEqual(['c', 'a', 'b']);
    const sk = skeletonOf(m, model)!;
    expect(sk.bones.map((b) => `${b.name}<${b.parent}`)).toEqual(['root<', 'turret<root', 'gun<turret']);
    const [turret, gun, hatch] = model.animations;
    expect(turret!.minValue).toBeCloseTo(-2 * Math.PI, 9);
    expect(turret!.angle1).toBeCloseTo(2 * Math.PI, 9);
    expect(gun!.type).toBe('rotationX');
    expect(gun!.source).toBe('mainTurret');
    expect(gun!.axis).toBe('turret_axis');
    expect(gun!.minValue).toBe(-1);
    expect(gun!.maxPhase).toBeCloseTo(2 * Math.PI, 9);
    expect(gun!.angle1).toBeCloseTo(-1.570795, 9);
    expect(hatch!.offset1).toBe(0.5);
    expect(hatch!.source).toBe('Hatch');
    expect(hatch!.sourceImplicit).toBe(true);
  });

  it('reports numbers that are not numbers at their line', () => {
    const m = readModelCfg(parseModelCfg('class CfgModels { class m { class Animations { class a { type = "hide";\n minValue = "lots"; }; }; }; };'));
    expect(m.problems).toHaveLength(1);
    expect(m.problems[0]!.message).toMatch(/minValue/);
    expect(m.problems[0]!.at.line).toBe(2);
  });

  it('reports syntax errors with line and column', () => {
    const e = errorOf(() => parseModelCfg('class A {\n  x = 1\n};', { fileName: 'm.cfg' }));
    expect(e.message).toMatch(/^m\.cfg:3:1: expected ;/);
  });

  it('saves an untouched file byte for byte and writes an edit in place', () => {
    const src = '// doors\r\nclass CfgModels {\r\n\tclass house {  // mine\r\n\t\tclass Animations { class d { angle1 = 1.4; /* rad */ minValue = "-1.2"; sel[] = {"a", "b"}; }; };\r\n\t};\r\n};\r\n';
    const bytes = new TextEncoder().encode('\ufeff' + src);
    const doc = decodeModelCfg(bytes);
    expect(encodeModelCfg(doc)).toEqual(bytes);
    const path = ['CfgModels', 'house', 'Animations', 'd'];
    const edited = setValue(setValue(setValue(doc, [...path, 'angle1'], -0.5), [...path, 'minValue'], 2), [...path, 'sel', 1], 'c');
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(encodeModelCfg(edited))).toBe('\ufeff' + src.replace('1.4', '-0.5').replace('"-1.2"', '"2"').replace('"b"', '"c"'));
    expect(readModelCfg(edited).models[0]!.animations[0]!.angle1).toBe(-0.5);
  });

  it('refuses to edit a value a macro wrote', () => {
    const doc = parseModelCfg('#define A 1.4\nclass x { angle1 = A; };');
    expect(() => setValue(doc, ['x', 'angle1'], 2)).toThrow(/macro/);
  });

  it('saves latin-1 text byte for byte', () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode('// caf'), 0xe9, 10, ...new TextEncoder().encode('class a {};')]);
    expect(encodeModelCfg(decodeModelCfg(bytes))).toEqual(bytes);
  });
});
