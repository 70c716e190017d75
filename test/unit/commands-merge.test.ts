import { describe, expect, it } from 'vitest';
import { canMerge, type EditCommand } from '../../shared/model/commands.ts';

const set = (path: (string | number)[], value: unknown, gesture?: string): EditCommand => ({ op: 'set', path, value, ...(gesture ? { gesture } : {}) });

describe('canMerge: one undo step per committed edit', () => {
  it('merges only the sets of one gesture on one path', () => {
    expect(canMerge(set(['a', 0], 1, 'g1'), set(['a', 0], 2, 'g1'))).toBe(true);
    expect(canMerge(set(['a', 0], 1, 'g1'), set(['a', 0], 2, 'g2'))).toBe(false);
    expect(canMerge(set(['a', 0], 1, 'g1'), set(['a', 1], 2, 'g1'))).toBe(false);
  });
  it('never merges separate committed edits of the same field', () => {
    expect(canMerge(set(['a', 0], 1), set(['a', 0], 2))).toBe(false);
    expect(canMerge(set(['a', 0], 1, 'g1'), set(['a', 0], 2))).toBe(false);
    expect(canMerge(set(['a', 0], 1), set(['a', 0], 2, 'g1'))).toBe(false);
    expect(canMerge(set(['a', 0], 1, ''), set(['a', 0], 2, ''))).toBe(false);
  });
  it('never merges other kinds of command', () => {
    const ins: EditCommand = { op: 'insert', path: ['a'], index: 0, value: 1, gesture: 'g' };
    expect(canMerge(ins, ins)).toBe(false);
  });
});
