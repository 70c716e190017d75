/**
 * The editor's glTF import through the document service: "New from glTF" opens an unsaved
 * document; "Replace mesh from glTF" is one undoable edit that leaves every other node's bytes as
 * they were.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import '../../shared/formats/index.ts';
import { formatById, type FormatId } from '../../shared/formats/registry.ts';
import { importGltf } from '../../shared/import/index.ts';
import { getAt, type NodePath } from '../../shared/model/path.ts';
import { corpusDir, hasCorpus, readBytes } from '../helpers/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'lodsmith-import-editor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A GLB of named triangle-fan meshes, each a regular polygon of `sides` corners at `x`. */
async function polygons(parts: { name: string; sides: number; x: number; parent?: string }[]): Promise<Uint8Array> {
  const doc = new Document();
  const buf = doc.createBuffer();
  const scene = doc.createScene();
  const byName = new Map<string, ReturnType<Document['createNode']>>();
  for (const p of parts) {
    const pos = new Float32Array(p.sides * 3);
    for (let i = 0; i < p.sides; i++) pos.set([p.x + Math.cos((i / p.sides) * Math.PI * 2), Math.sin((i / p.sides) * Math.PI * 2), 0], i * 3);
    const prim = doc.createPrimitive().setMode(6).setMaterial(doc.createMaterial(`${p.name}_mat`))
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf));
    const node = doc.createNode(p.name).setMesh(doc.createMesh(p.name).addPrimitive(prim));
    byName.set(p.name, node);
    if (p.parent) byName.get(p.parent)!.addChild(node);
    else scene.addChild(node);
  }
  return new WebIO().writeBinary(doc);
}

interface Case {
  format: FormatId;
  ext: string;
  parts: { name: string; sides: number; x: number; parent?: string }[];
  version?: string;
  /** The node replaced, and a node whose bytes must not change. */
  target: NodePath;
  other: NodePath;
  /** Triangles of the replaced mesh in the scene after the edit. */
  triangles: (scene: ReturnType<ReturnType<typeof formatById>['toScene']>) => number;
}

const CASES: Case[] = [
  { format: 'lodka-lod', ext: '.lod', parts: [{ name: 'a', sides: 4, x: 0 }, { name: 'b', sides: 3, x: 3 }], target: ['chunks', 0, 'children', 2, 'children', 0], other: ['chunks', 0, 'children', 2, 'children', 1], triangles: (s) => s.meshes[0]!.indices.length / 3 },
  { format: 'grimrock-model', ext: '.model', parts: [{ name: 'a', sides: 4, x: 0 }, { name: 'b', sides: 3, x: 3 }], target: ['nodes', 1, 'mesh'], other: ['nodes', 2], triangles: (s) => s.meshes[0]!.indices.length / 3 },
  { format: 'p3d-mlod', ext: '.p3d', parts: [{ name: '1.000', sides: 4, x: 0 }, { name: 'Geometry', sides: 3, x: 3 }], target: ['lods', 0], other: ['lods', 1], triangles: (s) => s.meshes[0]!.indices.length / 3 },
  { format: 'unigine-mesh', ext: '.mesh', version: 'ms11', parts: [{ name: 'a', sides: 4, x: 0 }, { name: 'b', sides: 3, x: 3 }], target: ['surfaces', 0], other: ['surfaces', 1], triangles: (s) => s.meshes[0]!.indices.length / 3 },
];

describe('Replace mesh from glTF', () => {
  for (const c of CASES) {
    it(`${c.format}: one undoable edit, the rest byte for byte`, async () => {
      const made = await importGltf({ kind: 'glb', bytes: await polygons(c.parts) }, c.format, c.version ? { version: c.version } : {});
      const file = join(dir, `doc${c.ext}`);
      writeFileSync(file, made.bytes);
      const svc = new DocumentService({ configDir: join(dir, 'config') });
      const { id } = await svc.open(file);
      const span = (tree: object, p: NodePath): [number, number] => {
        const n = getAt(tree, p) as { $span?: [number, number]; $dataSpan?: [number, number] };
        return (n.$dataSpan ?? n.$span)!;
      };
      const codec = formatById(c.format);
      const before = codec.decode(made.bytes);
      const [o0, o1] = span(before, c.other);
      const otherBytes = made.bytes.slice(o0, o1);
      // An octagon (a fan of 6 triangles) replaces the 2-triangle quad.
      const r = await svc.replaceFromGltf(id, c.target, await polygons([{ name: 'new', sides: 8, x: 0 }]), 'octagon.glb');
      expect(r.doc.dirty).toBe(true);
      expect(r.doc.undoLabel).toBe('Replace mesh from glTF');
      expect(c.triangles(svc.scene(id))).toBe(6);
      const edited = svc.bytes(id, 0, 1 << 30);
      const after = codec.decode(edited);
      const [n0, n1] = span(after, c.other);
      expect(Buffer.from(edited.slice(n0, n1)).equals(Buffer.from(otherBytes))).toBe(true);
      // One undo restores the file exactly.
      await svc.undo(id);
      expect(Buffer.from(svc.bytes(id, 0, 1 << 30)).equals(Buffer.from(made.bytes))).toBe(true);
      expect(c.triangles(svc.scene(id))).toBe(2);
    });
  }

  it('refuses a node that is not a mesh, with the reason', async () => {
    const made = await importGltf({ kind: 'glb', bytes: await polygons([{ name: 'a', sides: 4, x: 0 }]) }, 'lodka-lod');
    const file = join(dir, 'refuse.lod');
    writeFileSync(file, made.bytes);
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    const { id } = await svc.open(file);
    await expect(svc.replaceFromGltf(id, ['chunks', 0, 'children', 1], await polygons([{ name: 'n', sides: 3, x: 0 }]), 'n.glb')).rejects.toThrow(/select an MSH1 mesh chunk/);
  });
});

describe('New from glTF', () => {
  it('opens the import as an unsaved document that saves where asked', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    const target = join(dir, 'new.model');
    const r = await svc.newFromGltf(await polygons([{ name: 'a', sides: 5, x: 0 }]), 'five.glb', target);
    expect(r.doc).toMatchObject({ format: 'grimrock-model', fileName: 'new.model', dirty: true });
    expect(r.warnings).toContain('mesh "a": normals computed (the file has none)');
    expect(svc.scene(r.doc.id).meshes[0]!.indices.length / 3).toBe(3);
    const saved = await svc.save(r.doc.id);
    expect(saved.dirty).toBe(false);
    const reopened = await new DocumentService({ configDir: join(dir, 'config2') }).open(target);
    expect(reopened.format).toBe('grimrock-model');
  });

  it('never replaces an existing file (the Save As write policy)', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    writeFileSync(join(dir, 'taken.lod'), 'keep');
    await expect(svc.newFromGltf(await polygons([{ name: 'a', sides: 3, x: 0 }]), 'a.glb', join(dir, 'taken.lod'))).rejects.toThrow(/already exists/);
  });

  it('refuses a target whose extension is no format', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config') });
    await expect(svc.newFromGltf(await polygons([{ name: 'a', sides: 3, x: 0 }]), 'a.glb', join(dir, 'x.obj'))).rejects.toThrow(/Choose a file name ending in \.lod/);
  });
});

describe.skipIf(!hasCorpus)('Replace mesh from glTF keeps skinning by bone name', () => {
  const skinned = join(corpusDir, 'gltf', 'dmurdoch__rgl2gltf__RiggedSimple.glb');
  for (const [format, ext, target] of [
    ['lodka-lod', '.lod', ['chunks', 0, 'children', 3, 'children', 0]],
    ['unigine-mesh', '.mesh', ['surfaces', 0]],
  ] as const) {
    it(`${format}: weights map to the document's bones of the same names`, async () => {
      const glb = readBytes(skinned);
      const made = await importGltf({ kind: 'glb', bytes: glb }, format, format === 'unigine-mesh' ? { version: 'ms11' } : {});
      const file = join(dir, `skinned${ext}`);
      writeFileSync(file, made.bytes);
      const svc = new DocumentService({ configDir: join(dir, 'config') });
      const { id } = await svc.open(file);
      const before = svc.scene(id).meshes[0]!.skin!;
      const r = await svc.replaceFromGltf(id, [...target], glb, 'RiggedSimple.glb');
      expect(r.warnings.join('\n')).not.toMatch(/skin is left out/);
      const after = svc.scene(id).meshes[0]!.skin!;
      expect(Array.from(after.joints)).toEqual(Array.from(before.joints));
      for (let i = 0; i < before.weights.length; i++) expect(after.weights[i]).toBeCloseTo(before.weights[i]!, 4);
      // Joints the document does not have: the mesh comes without weights, and says so.
      const renamed = await new WebIO().readBinary(glb);
      for (const j of renamed.getRoot().listSkins()[0]!.listJoints()) j.setName(`other ${j.getName()}`);
      const r2 = await svc.replaceFromGltf(id, [...target], await new WebIO().writeBinary(renamed), 'renamed.glb');
      expect(r2.warnings.join('\n')).toMatch(/the skin is left out: joint\(s\) "other .*" are not bones of the document/);
      expect(svc.scene(id).meshes[0]!.skin).toBeUndefined();
    });
  }
});
