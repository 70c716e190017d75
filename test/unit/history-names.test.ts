/**
 * Undo steps in words a modder reads: the field's label (not its raw key, not the spec's typo),
 * the item's index when its name is shared (six Omni lights), and a screenshot step that says
 * what it stored and where.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentService } from '../../main/documents/document-service.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { encodeLod } from '../../shared/formats/lodka/encode.ts';
import { encodePng } from '../../shared/formats/texture/png.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-steps-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function* nodes(n: OutlineNode): Generator<OutlineNode> {
  yield n;
  for (const c of n.children ?? []) yield* nodes(c);
}

async function openSample(): Promise<{ svc: DocumentService; id: string; outline: OutlineNode }> {
  const file = join(dir, 'robot.lod');
  await writeFile(file, encodeLod(buildSampleLod()));
  const svc = new DocumentService({ configDir: join(dir, 'config') });
  const snap = await svc.open(file);
  return { svc, id: snap.id, outline: snap.outline };
}

describe('undo step names', () => {
  it('a light whose style other lights share is named by its index, and the field by its label', async () => {
    const { svc, id, outline } = await openSample();
    const omni = [...nodes(outline)].filter((n) => n.kind === 'light' && n.label === 'Omni');
    expect(omni.length).toBeGreaterThan(1);
    const light = omni[2]!;
    const index = light.path[light.path.length - 1];
    const snap = await svc.edit(id, { op: 'set', path: [...light.path, 'ligthStyle'], value: 0 });
    expect(snap.undoLabel).toBe(`Set style of light ${index} (Omni)`);
    expect(snap.undoLabel).not.toMatch(/ligth/);
  });

  it('an item with a name of its own keeps it; a field without a schema label reads as words', async () => {
    const { svc, id, outline } = await openSample();
    const ground = [...nodes(outline)].find((n) => n.kind === 'material' && n.label === 'ground')!;
    let snap = await svc.edit(id, { op: 'set', path: [...ground.path, 'options', 'shininess'], value: 12 });
    expect(snap.undoLabel).toBe('Set shininess of material ground');
    const light = [...nodes(outline)].find((n) => n.kind === 'light' && n.path[n.path.length - 2] === 'lights')!;
    snap = await svc.edit(id, { op: 'set', path: [...light.path, 'spotCutOff'], value: 45 });
    expect(snap.undoLabel).toMatch(/^Set spot cut off of light /);
  });

  it('the IMG1 screenshot step says what it stored', async () => {
    const { svc, id } = await openSample();
    const png = encodePng({ width: 4, height: 3, data: new Uint8Array(4 * 3 * 4).fill(255) });
    const snap = await svc.screenshot(id, png, 'shot.png');
    expect(snap.undoLabel).toMatch(/screenshot/i);
    expect(snap.undoLabel).toContain('IMG1');
    expect(snap.undoLabel).toContain('4 × 3');
  });
});
