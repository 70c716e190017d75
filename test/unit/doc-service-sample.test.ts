/**
 * The document service on real LODka data: the bundled sample is current, opens, takes a
 * screenshot into IMG1 (undoably), and saves byte-for-byte when untouched.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentService } from '../../main/documents/document-service.ts';
import { formatById } from '../../shared/formats/index.ts';
import { SAMPLE_FILE, sampleBytes } from '../../build/make-sample.ts';
import type { LodDocument } from '../../shared/formats/lodka/codec.ts';
import { NodeIO } from '@gltf-transform/core';
import { defaultGltfWriter } from '../../main/documents/gltf-writer.ts';
import { UP_ROOT_NAME } from '../../shared/export/gltf.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lodsmith-sample-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function img1Chunks(doc: LodDocument): { screenshotName: string; screenshotData: Uint8Array }[] {
  const out: { screenshotName: string; screenshotData: Uint8Array }[] = [];
  const walk = (chunks: { id: string; children?: unknown }[]) => {
    for (const c of chunks) {
      if (c.id === 'IMG1') out.push(c as unknown as (typeof out)[number]);
      if (Array.isArray(c.children)) walk(c.children as { id: string }[]);
    }
  };
  walk(doc.chunks as { id: string }[]);
  return out;
}

describe('bundled sample', () => {
  it('is what build/make-sample.ts produces (regenerate with node build/make-sample.ts)', async () => {
    expect(new Uint8Array(await readFile(SAMPLE_FILE))).toEqual(sampleBytes());
  });

  it('opens as a working copy, saves byte for byte when untouched', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), samplePath: SAMPLE_FILE });
    const snap = await svc.openSample();
    expect(snap).toMatchObject({ format: 'lodka-lod', fileName: 'sample.lod', dirty: false });
    expect(snap.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(svc.scene(snap.id).meshes.length).toBeGreaterThan(0);
    await svc.save(snap.id);
    expect(new Uint8Array(await readFile(snap.path))).toEqual(new Uint8Array(await readFile(SAMPLE_FILE)));
  });

  it('stores a screenshot in IMG1 as an undoable edit and saves it', async () => {
    const file = join(dir, 'robot.lod');
    await copyFile(SAMPLE_FILE, file);
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    const { id } = await svc.open(file);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
    const snap = await svc.screenshot(id, png, 'shot.png');
    expect(snap).toMatchObject({ dirty: true, undoLabel: 'Replace the screenshot (IMG1)' });
    await svc.save(id);
    const codec = formatById('lodka-lod');
    const saved = codec.decode(new Uint8Array(await readFile(file))) as LodDocument;
    const shots = img1Chunks(saved);
    expect(shots.length).toBeGreaterThan(0);
    expect(shots[0]!.screenshotName).toBe('shot.png');
    expect(shots[0]!.screenshotData).toEqual(png);
    const undone = await svc.undo(id);
    expect(undone.dirty).toBe(true);
    expect(img1Chunks(codec.decode(svc.bytes(id, 0, 1e9)) as LodDocument)[0]!.screenshotData).not.toEqual(png);
  });

  it('creates an IMG1 chunk when the model has none', async () => {
    const codec = formatById('lodka-lod');
    const doc = codec.decode(new Uint8Array(await readFile(SAMPLE_FILE))) as LodDocument;
    const strip = (chunks: { id: string; children?: unknown }[]): unknown[] =>
      chunks.filter((c) => c.id !== 'IMG1').map((c) => (Array.isArray(c.children) ? { ...c, $raw: undefined, children: strip(c.children as { id: string }[]) } : c));
    const without = { ...doc, chunks: strip(doc.chunks as { id: string }[]) } as LodDocument;
    const file = join(dir, 'noshot.lod');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, codec.encode(without, { reuseRaw: false }));
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    const { id } = await svc.open(file);
    expect(img1Chunks(codec.decode(svc.bytes(id, 0, 1e9)) as LodDocument)).toHaveLength(0);
    await svc.screenshot(id, new Uint8Array([1, 2, 3]), 'new.png');
    const shots = img1Chunks(codec.decode(svc.bytes(id, 0, 1e9)) as LodDocument);
    expect(shots.map((s) => s.screenshotName)).toEqual(['new.png']);
    await svc.undo(id);
    expect(img1Chunks(codec.decode(svc.bytes(id, 0, 1e9)) as LodDocument)).toHaveLength(0);
  });

  it('exports glTF oriented as the viewport shows it: the up axis the user chose, else the guess', async () => {
    const file = join(dir, 'robot.lod');
    await copyFile(SAMPLE_FILE, file);
    const svc = new DocumentService({ configDir: join(dir, 'config'), gltf: defaultGltfWriter });
    const { id } = await svc.open(file);
    const guess = svc.scene(id).upAxis ?? 'y';
    const hasUpRoot = async (up?: 'y' | 'z'): Promise<boolean> => {
      const out = join(dir, `robot-${up ?? 'guess'}.glb`);
      await svc.exportGltf(id, out, undefined, up);
      const gltf = await new NodeIO().readBinary(new Uint8Array(await readFile(out)));
      return gltf.getRoot().listNodes().some((n) => n.getName() === UP_ROOT_NAME);
    };
    expect(await hasUpRoot()).toBe(guess === 'z');
    expect(await hasUpRoot('z')).toBe(true);
    expect(await hasUpRoot('y')).toBe(false);
  });
});
