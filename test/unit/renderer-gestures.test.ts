/**
 * Gesture ids decide which edits merge into one undo step: ids never repeat (however fast they
 * are made, from however many field rows), each arrow press is a gesture of its own, and the
 * repeats of a held key continue the press that began them.
 */
import { describe, expect, it } from 'vitest';
import { KeyHold, newGestureId } from '../../renderer/lib/gestures.ts';

describe('gesture ids', () => {
  it('never repeat, even thousands made within one millisecond for one path', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newGestureId(['MAT1', 0, 'shininess'])));
    expect(ids.size).toBe(5000);
  });

  it('two key holds made apart (two field rows) hand out different ids', () => {
    const a = new KeyHold();
    const b = new KeyHold();
    expect(a.down({ key: 'ArrowUp', repeat: false }, ['x'])).not.toBe(b.down({ key: 'ArrowUp', repeat: false }, ['x']));
  });
});

describe('KeyHold', () => {
  it('each separate press is its own gesture', () => {
    const h = new KeyHold();
    const first = h.down({ key: 'ArrowUp', repeat: false }, ['v']);
    h.up();
    const second = h.down({ key: 'ArrowUp', repeat: false }, ['v']);
    expect(second).not.toBe(first);
  });

  it('the repeats of a held key continue the press that began the hold, until the key goes up', () => {
    const h = new KeyHold();
    const press = h.down({ key: 'ArrowUp', repeat: false }, ['v']);
    for (let i = 0; i < 5; i++) expect(h.down({ key: 'ArrowUp', repeat: true }, ['v'])).toBe(press);
    h.up();
    expect(h.down({ key: 'ArrowUp', repeat: true }, ['v'])).not.toBe(press);
  });

  it('another key starts another gesture even without a keyup between', () => {
    const h = new KeyHold();
    const up = h.down({ key: 'ArrowUp', repeat: false }, ['v']);
    expect(h.down({ key: 'ArrowDown', repeat: true }, ['v'])).not.toBe(up);
  });
});
