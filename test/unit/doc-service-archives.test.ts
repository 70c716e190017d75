/**
 * PBO archives in the editor (doc-archives.ts): the Open dialog's listing shows an archive as a
 * folder and lists its folders and entries; an entry opens read-only (edits refused), Save As
 * writes it out byte for byte; a compressed entry opens too; a model inside finds its texture
 * inside the same archive by the prefix; a missing entry is not-found.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { AppErrorException } from '../../main/documents/app-error.ts';
import { readBytes, repoRoot } from '../helpers/corpus.ts';
import { buildPbo, text } from '../helpers/pbo.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { decodePng } from '../../shared/formats/texture/png.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-docpbo-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PBO archives in the editor', () => {
  it('browsed like a folder, entries opened read-only, Save As writes them out', async () => {
    const sample = readBytes(join(repoRoot, 'build/sample/sample.lod'));
    await writeFile(join(dir, 'mymod.pbo'), buildPbo([
      { name: 'config.cpp', data: text('class CfgPatches {};') },
      { name: 'data\\robot.lod', data: sample, compress: true },
      { name: 'data\\sub\\copy.lod', data: sample },
    ], { properties: [['prefix', 'mymod']] }));
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });

    const top = await svc.listDir(dir);
    const archive = top.find((e) => e.name === 'mymod.pbo')!;
    expect(archive).toMatchObject({ dir: true, path: `${join(dir, 'mymod.pbo')}::` });
    const inside = await svc.listDir(archive.path);
    expect(inside.map((e) => [e.name, e.dir])).toEqual([['data', true], ['config.cpp', false]]);
    const data = await svc.listDir(inside[0]!.path);
    expect(data.map((e) => [e.name, e.dir])).toEqual([['sub', true], ['robot.lod', false]]);
    const robot = data.find((e) => e.name === 'robot.lod')!;
    expect(robot.size).toBe(sample.length);

    const snap = await svc.open(robot.path);
    expect(snap.readOnly).toBe(true);
    expect(snap.fileName).toBe('robot.lod');
    const refused = await svc.edit(snap.id, { op: 'set', path: ['chunks', 0, 'children', 0, 'text'], value: 'x' }).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(AppErrorException);

    await svc.saveAs(snap.id, join(dir, 'robot-out.lod'));
    expect(Buffer.from(await readFile(join(dir, 'robot-out.lod'))).equals(Buffer.from(sample))).toBe(true);

    // A model inside the archive finds its texture inside it too, by the archive's prefix.
    const c = cube(1);
    const model = encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => 'mymod\\data\\box_co.paa') })]));
    const paa = encodePaa(createPaa({ width: 8, height: 8, data: new Uint8Array(256).fill(180) }, { format: 'argb8888' }));
    await writeFile(join(dir, 'tex.pbo'), buildPbo([{ name: 'data\\box.p3d', data: model }, { name: 'data\\Box_CO.paa', data: paa }], { properties: [['prefix', 'mymod']] }));
    const boxDoc = await svc.open(`${join(dir, 'tex.pbo')}::data\\box.p3d`);
    expect(boxDoc.problems.filter((p) => /texture not found/.test(p.message))).toEqual([]);
    const png = await svc.texture(boxDoc.id, 'mymod\\data\\box_co.paa');
    expect(png).not.toBeNull();
    expect(decodePng(png!).width).toBe(8);
    expect(await svc.texture(boxDoc.id, 'othermod\\data\\box_co.paa')).toBeNull();
    expect(await svc.texture(boxDoc.id, 'mymod\\data\\nothing_co.paa')).toBeNull();

    const missing = await svc.open(`${join(dir, 'mymod.pbo')}::data\\nothing.lod`).then(() => null, (e: unknown) => e);
    expect((missing as AppErrorException).appError.code).toBe('not-found');
  });
});
