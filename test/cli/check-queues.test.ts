/** How `lodsmith check` hands files to its workers: by kind, so each worker warms up fewer decoders. */
import { describe, expect, it } from 'vitest';
import { JobQueues, kindOf } from '../../main/cli/commands/check.ts';

const jobs = (...files: string[]): { file: string }[] => files.map((file) => ({ file }));

describe('check job queues', () => {
  it('files go by extension, case-insensitive; .pac is PAA', () => {
    expect(kindOf('a/B.P3D')).toBe('.p3d');
    expect(kindOf('x.pac')).toBe('.paa');
    expect(kindOf('noext')).toBe('');
  });

  it('a worker keeps to its kind, a second one starts on another, and every file is handed out once', () => {
    const q = new JobQueues(jobs('big.p3d', 'big.paa', 'a.p3d', 'b.p3d', 'a.paa', 'c.p3d', 'm.model'));
    const none = new Set<string>();
    // First worker: the kind with the most files, in the given order (largest first).
    const w1 = q.take(undefined, none)!;
    expect(w1.file).toBe('big.p3d');
    // Second worker, while the first is on .p3d: the fullest kind nobody is on.
    const w2 = q.take(undefined, new Set(['.p3d']))!;
    expect(w2.file).toBe('big.paa');
    expect(q.take('.p3d', new Set(['.paa']))!.file).toBe('a.p3d');
    expect(q.take('.paa', new Set(['.p3d']))!.file).toBe('a.paa');
    // .paa is empty now: that worker moves to the kind nobody is on before sharing .p3d.
    expect(q.take('.paa', new Set(['.p3d']))!.file).toBe('m.model');
    expect(q.take('.model', new Set(['.p3d']))!.file).toBe('b.p3d');
    expect(q.take('.p3d', new Set(['.p3d']))!.file).toBe('c.p3d');
    expect(q.remaining).toBe(0);
    expect(q.take('.p3d', none)).toBeUndefined();
  });
});
