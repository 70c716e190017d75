/**
 * The typed-text rule every editable row shares (renderer/components/use-drafts.ts): a draft,
 * then the text sent, then the stored value; the row's own edit coming back keeps what was typed
 * since; any other change drops it; a refusal makes the sent text a draft again; Escape drops it.
 */
import { describe, expect, it } from 'vitest';
import { useDrafts } from '../../renderer/components/use-drafts.ts';

function row(initial: string[]) {
  const stored = [...initial];
  const d = useDrafts<number>((i) => stored[i] ?? '');
  return { d, stored };
}

describe('useDrafts', () => {
  it('shows the draft, then the sent text until the value arrives, then the stored value', () => {
    const { d, stored } = row(['1', '2']);
    expect(d.text(0)).toBe('1');
    d.input(0, '10');
    expect([d.text(0), d.attr(0), d.has(0)]).toEqual(['10', 'true', true]);
    d.send(0);
    // Committed: no longer a draft (Ctrl+Z is the document's), still shown while the edit travels.
    expect([d.text(0), d.attr(0)]).toEqual(['10', undefined]);
    stored[0] = '10';
    d.arrived();
    expect(d.text(0)).toBe('10');
    stored[0] = '11';
    expect(d.text(0)).toBe('11');
  });

  it('slow host: text typed while the own edit returns stays, and is the next edit', () => {
    const { d, stored } = row(['1']);
    d.input(0, '10');
    d.send(0);
    d.input(0, '20'); // typed before the reply
    stored[0] = '10';
    d.arrived(); // the reply: own edit
    expect([d.text(0), d.draft(0)]).toEqual(['20', '20']);
    d.send(0);
    stored[0] = '20';
    d.arrived();
    expect([d.text(0), d.has(0)]).toEqual(['20', false]);
  });

  it('a change the row did not make (undo, another node) drops the drafts', () => {
    const { d, stored } = row(['1', '2']);
    d.input(1, '7');
    stored[1] = '3';
    d.arrived();
    expect([d.text(1), d.has(1)]).toEqual(['3', false]);
    d.input(0, '5');
    d.reset();
    expect(d.text(0)).toBe('1');
  });

  it('a refused edit puts the sent text back as a draft; drop forgets a draft that says what is stored', () => {
    const { d } = row(['1']);
    d.input(0, 'x');
    d.send(0);
    d.refused();
    expect([d.text(0), d.draft(0)]).toEqual(['x', 'x']);
    d.drop(0);
    expect([d.text(0), d.has(0)]).toEqual(['1', false]);
    // send() with text and no draft (a blur that committed what the input holds).
    d.send(0, '4');
    expect(d.text(0)).toBe('4');
  });

  it('Escape drops the draft and restores the input; without a draft it leaves the key alone unless forced', async () => {
    const { d } = row(['1']);
    const el = { value: '9' };
    let stopped = 0;
    const key = { target: el, stopPropagation: () => stopped++ } as unknown as KeyboardEvent;
    expect(d.cancel(key, 0)).toBe(false);
    expect(stopped).toBe(0);
    d.input(0, '9');
    expect(d.cancel(key, 0)).toBe(true);
    expect(stopped).toBe(1);
    await Promise.resolve();
    expect([el.value, d.has(0)]).toEqual(['1', false]);
    expect(d.cancel(key, 0, true)).toBe(true);
  });
});

describe('useDrafts with a row that queues edits', () => {
  it('a second edit sent before the first came back stays shown when the first arrives (no flash of the first value)', () => {
    const stored = ['1'];
    let inFlight = 0;
    const d = useDrafts<number>((i) => stored[i] ?? '', () => inFlight > 0);
    d.input(0, '10');
    d.send(0);
    d.input(0, '20');
    d.send(0); // queued behind the first
    inFlight = 1; // the first came back, the second is on its way
    stored[0] = '10';
    d.arrived();
    expect(d.text(0)).toBe('20');
    inFlight = 0;
    stored[0] = '20';
    d.arrived();
    expect(d.text(0)).toBe('20');
    // Nothing sent any more: the next change is someone else's.
    stored[0] = '5';
    d.arrived();
    expect(d.text(0)).toBe('5');
  });
});
