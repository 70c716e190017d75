/**
 * The arithmetic model.cfg values may hold, as text (`angle1 = "rad 45";`, `-3.14159/2`,
 * `"(rad 90) * 0.5"`) or inside `__EVAL(...)`: numbers, `pi`, `+ - * / % ^`, parentheses and the
 * unary functions of the game's expression language (`rad`, `deg`, `sin`, `cos`, `tan`, `asin`,
 * `acos`, `atan`, `sqrt`, `abs`, `exp`, `ln`, `log`, `floor`, `ceil`, `round`). As in the game's
 * language a unary operator binds tighter than any binary one: `rad 45 * 2` is `(rad 45) * 2`.
 */
import { numberEnd } from './lexer.ts';

const UNARY: Record<string, (x: number) => number> = {
  rad: (x) => (x * Math.PI) / 180,
  deg: (x) => (x * 180) / Math.PI,
  sin: (x) => Math.sin((x * Math.PI) / 180),
  cos: (x) => Math.cos((x * Math.PI) / 180),
  tan: (x) => Math.tan((x * Math.PI) / 180),
  asin: (x) => (Math.asin(x) * 180) / Math.PI,
  acos: (x) => (Math.acos(x) * 180) / Math.PI,
  atan: (x) => (Math.atan(x) * 180) / Math.PI,
  sqrt: Math.sqrt,
  abs: Math.abs,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log10,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
};

/** Thrown for text that is not an expression; `offset` is into the expression's text. */
export class ExpressionError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/** Longest expression text evaluated (the fuzzer's inputs must not recurse without end). */
const MAX_LENGTH = 4096;
const MAX_DEPTH = 100;

/**
 * Evaluates `text`. `variables` are names `__EXEC` assigned. Throws ExpressionError.
 */
export function evaluate(text: string, variables?: ReadonlyMap<string, number>): number {
  if (text.length > MAX_LENGTH) throw new ExpressionError(`expression longer than ${MAX_LENGTH} characters`, 0);
  let i = 0;
  const skip = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const word = (): string => {
    skip();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 64));
    return m ? m[0] : '';
  };
  const expr = (): number => {
    let v = term();
    for (;;) {
      skip();
      const c = text[i];
      if (c === '+') { i++; v += term(); } else if (c === '-') { i++; v -= term(); } else return v;
    }
  };
  const term = (): number => {
    let v = power();
    for (;;) {
      skip();
      const c = text[i];
      if (c === '*') { i++; v *= power(); } else if (c === '/') { i++; v /= power(); } else if (c === '%') { i++; v %= power(); } else if (word().toLowerCase() === 'mod') { i += 3; v %= power(); } else return v;
    }
  };
  const power = (): number => {
    let v = unary();
    for (;;) {
      skip();
      if (text[i] === '^') { i++; v **= unary(); } else return v;
    }
  };
  let depth = 0;
  const unary = (): number => {
    if (++depth > MAX_DEPTH) throw new ExpressionError(`expression nested deeper than ${MAX_DEPTH}`, i);
    try {
      return unaryInner();
    } finally {
      depth--;
    }
  };
  const unaryInner = (): number => {
    skip();
    const c = text[i];
    if (c === '-') { i++; return -unary(); }
    if (c === '+') { i++; return unary(); }
    if (c === '(') {
      i++;
      const v = expr();
      skip();
      if (text[i] !== ')') throw new ExpressionError('expected )', i);
      i++;
      return v;
    }
    if (c !== undefined && /[0-9.]/.test(c)) {
      const end = numberEnd(text, i);
      if (end === i) throw new ExpressionError('expected a number', i);
      const v = Number(text.slice(i, end));
      i = end;
      return v;
    }
    const w = word();
    if (w) {
      const lw = w.toLowerCase();
      const at = i;
      i += w.length;
      if (lw === 'pi') return Math.PI;
      const f = UNARY[lw];
      if (f) return f(unary());
      const v = variables?.get(lw);
      if (v !== undefined) return v;
      throw new ExpressionError(`unknown name ${w}`, at);
    }
    throw new ExpressionError(c === undefined ? 'expression ends too early' : `unexpected ${c}`, i);
  };
  const v = expr();
  skip();
  if (i < text.length) throw new ExpressionError(`unexpected ${text[i]}`, i);
  return v;
}

/** `evaluate`, or undefined when the text is not an expression. */
export function tryEvaluate(text: string, variables?: ReadonlyMap<string, number>): number | undefined {
  try {
    return evaluate(text, variables);
  } catch {
    return undefined;
  }
}
