/**
 * `lodsmith import`: exit codes, the one-line error naming the glTF path, warnings on stderr and
 * in --json, format versions, external buffers, bounded allocation and atomic writes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import { runCliIn } from './helpers/memory-io.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(tmp, args);

/** A glTF JSON of one triangle (positions only), with optional extra joints/weights and overrides. */
function triangle(opts: { mode?: number; indices?: number[]; influences?: number; json?: (j: any) => void } = {}): any {
  const pos = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const idx = new Uint16Array(opts.indices ?? [0, 1, 2, 0]);
  const parts: Uint8Array[] = [new Uint8Array(pos.buffer), new Uint8Array(idx.buffer)];
  const json: any = {
    asset: { version: '2.0' },
    scenes: [{ nodes: [0] }], scene: 0,
    nodes: [{ name: 'Tri', mesh: 0 }],
    meshes: [{ name: 'tri', primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: opts.mode ?? 4, material: 0 }] }],
    materials: [{ name: 'paint', pbrMetallicRoughness: { baseColorFactor: [1, 0, 0, 1] } }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5123, count: 3, type: 'SCALAR' },
    ],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 8 }],
    buffers: [{ byteLength: 44 }],
  };
  if (opts.influences) {
    // Two skins' worth of influences: JOINTS_0/1 and WEIGHTS_0/1, all joints weighted equally.
    const n = opts.influences;
    const joints = new Uint8Array(3 * 8), weights = new Float32Array(3 * 8);
    for (let v = 0; v < 3; v++) for (let k = 0; k < n; k++) { joints[v * 8 + k] = k; weights[v * 8 + k] = 1 / n; }
    const jointNodes = Array.from({ length: 8 }, (_, i) => ({ name: `bone${i}`, ...(i < 7 ? { children: [i + 2] } : {}) }));
    json.nodes.push(...jointNodes);
    json.scenes[0].nodes.push(1);
    json.nodes[0].skin = 0;
    json.skins = [{ joints: [1, 2, 3, 4, 5, 6, 7, 8] }];
    const off = 44;
    parts.push(joints.subarray(0, 12), joints.subarray(12), new Uint8Array(weights.buffer, 0, 48), new Uint8Array(weights.buffer, 48, 48));
    // JOINTS_0/1 are the first and second four of each vertex's eight.
    const j0 = new Uint8Array(12), j1 = new Uint8Array(12), w0 = new Float32Array(12), w1 = new Float32Array(12);
    for (let v = 0; v < 3; v++) for (let k = 0; k < 4; k++) { j0[v * 4 + k] = joints[v * 8 + k]!; j1[v * 4 + k] = joints[v * 8 + 4 + k]!; w0[v * 4 + k] = weights[v * 8 + k]!; w1[v * 4 + k] = weights[v * 8 + 4 + k]!; }
    parts.splice(2, 4, j0, j1, new Uint8Array(w0.buffer), new Uint8Array(w1.buffer));
    json.bufferViews.push({ buffer: 0, byteOffset: off, byteLength: 12 }, { buffer: 0, byteOffset: off + 12, byteLength: 12 }, { buffer: 0, byteOffset: off + 24, byteLength: 48 }, { buffer: 0, byteOffset: off + 72, byteLength: 48 });
    json.accessors.push(
      { bufferView: 2, componentType: 5121, count: 3, type: 'VEC4' }, { bufferView: 3, componentType: 5121, count: 3, type: 'VEC4' },
      { bufferView: 4, componentType: 5126, count: 3, type: 'VEC4' }, { bufferView: 5, componentType: 5126, count: 3, type: 'VEC4' },
    );
    Object.assign(json.meshes[0].primitives[0].attributes, { JOINTS_0: 2, JOINTS_1: 3, WEIGHTS_0: 4, WEIGHTS_1: 5 });
  }
  const total = parts.reduce((s, p) => s + p.length, 0);
  const bin = new Uint8Array(total);
  let o = 0;
  for (const p of parts) { bin.set(p, o); o += p.length; }
  json.buffers[0].byteLength = total;
  json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  opts.json?.(json);
  return json;
}

function write(name: string, json: unknown): string {
  writeFileSync(join(tmp, name), typeof json === 'string' ? json : JSON.stringify(json));
  return name;
}

describe('lodsmith import', () => {
  it('writes the format the extension names, with a one-line summary', async () => {
    const r = await cli(['import', write('tri.gltf', triangle()), 'tri.model']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote tri\.model \(Legend of Grimrock model 2, .*\): 1 mesh, 1 triangle, 1 material/);
    const bytes = readFileSync(join(tmp, 'tri.model'));
    expect(detectFormat(new Uint8Array(bytes), 'tri.model')?.id).toBe('grimrock-model');
  });

  it('warns on stderr and in --json about what it computed or left out', async () => {
    const r = await cli(['import', write('tri2.gltf', triangle()), 'tri2.lod', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.format).toBe('lodka-lod');
    expect(out.warnings).toContain('mesh "tri": normals computed (the file has none)');
    expect(out.meshes[0].triangles).toBe(1);
    expect(r.err).toContain('warning: mesh "tri": normals computed');
  });

  it('--version picks the Unigine mesh version (default ms14), and a wrong one is refused', async () => {
    const f = write('tri3.gltf', triangle());
    expect((await cli(['import', f, 'a.mesh'])).code).toBe(0);
    expect(readFileSync(join(tmp, 'a.mesh')).subarray(0, 4).toString()).toBe('ms14');
    expect((await cli(['import', f, 'b.mesh', '--version', 'ms10'])).code).toBe(0);
    expect(readFileSync(join(tmp, 'b.mesh')).subarray(0, 4).toString()).toBe('ms10');
    const bad = await cli(['import', f, 'c.mesh', '--version', 'ms99']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--version for \.mesh is one of ms14, ms11, ms10, mr02/);
    expect(existsSync(join(tmp, 'c.mesh'))).toBe(false);
  });

  it('reads a .gltf whose buffer is a file beside it', async () => {
    const j = triangle();
    const data = Buffer.from(j.buffers[0].uri.split(',')[1], 'base64');
    writeFileSync(join(tmp, 'ext.bin'), data);
    j.buffers[0].uri = 'ext.bin';
    expect((await cli(['import', write('ext.gltf', j), 'ext.p3d'])).code).toBe(0);
    rmSync(join(tmp, 'ext.bin'));
    const r = await cli(['import', 'ext.gltf', 'ext2.p3d']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('lodsmith: ext.gltf: the buffer file "ext.bin" it names is missing\n');
  });

  const bad: [string, any, RegExp][] = [
    ['not JSON', '{ "asset": ', /the glTF JSON does not parse/],
    ['no meshes', { asset: { version: '2.0' }, scenes: [{ nodes: [0] }], nodes: [{ name: 'empty' }] }, /no meshes with triangles to import \(glTF meshes\)/],
    ['a line primitive', triangle({ mode: 1 }), /primitive mode LINES cannot be made into triangles \(glTF nodes\[0\] "Tri"\/meshes\[0\]\/primitives\[0\]\)/],
    ['an index past the last vertex', triangle({ indices: [0, 1, 7, 0] }), /index 7 at 2 is past the last vertex \(2\) \(glTF nodes\[0\] "Tri"\/meshes\[0\]\/primitives\[0\]\)/],
    ['a buffer view outside its buffer', triangle({ json: (j) => (j.bufferViews[1].byteLength = 4000) }), /lie outside buffer 0 .*\(glTF bufferViews\[1\]\)/],
    ['an accessor past its view', triangle({ json: (j) => (j.accessors[0].count = 30) }), /run past the end of bufferView 0 .*\(glTF accessors\[0\]\)/],
    ['glTF 1.0', triangle({ json: (j) => (j.asset.version = '1.0') }), /only glTF 2\.x is read \(glTF asset\)/],
  ];
  for (const [what, json, message] of bad) {
    it(`refuses ${what}: exit 2, one line, nothing written`, async () => {
      const name = `bad-${what.replace(/\W+/g, '-')}`;
      const r = await cli(['import', write(`${name}.gltf`, json), `${name}.lod`]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(new RegExp(`^lodsmith: ${name}\\.gltf: `));
      expect(r.err).toMatch(message);
      expect(existsSync(join(tmp, `${name}.lod`))).toBe(false);
    });
  }

  it('refuses buffer files larger than any model before reading them', async () => {
    // An accessor declaring 100 million VEC4 floats over a view that claims to hold them: the
    // ranges are consistent, but the buffer file is past the input size limit.
    const j = triangle({
      json: (x) => {
        x.buffers[0].byteLength = 1_600_000_000;
        x.bufferViews.push({ buffer: 0, byteOffset: 0, byteLength: 1_600_000_000 });
        x.accessors.push({ bufferView: 2, componentType: 5126, count: 100_000_000, type: 'VEC4' });
      },
    });
    j.buffers[0].uri = 'huge.bin';
    // A sparse file: its size says 1.6 GB, no data is written.
    const { openSync, ftruncateSync, closeSync } = await import('node:fs');
    const fd = openSync(join(tmp, 'huge.bin'), 'w');
    ftruncateSync(fd, 1_600_000_000);
    closeSync(fd);
    const r = await cli(['import', write('huge.gltf', j), 'huge.lod']);
    rmSync(join(tmp, 'huge.bin'));
    expect(r.code).toBe(2);
    expect(r.err).toBe('lodsmith: huge.gltf: its buffers add up to more than 1073741824 bytes\n');
  });

  it('charges glTF accessors to the decoding memory budget before glTF Transform allocates them', async () => {
    const j = triangle({
      json: (x) => {
        // A 60 MB embedded buffer read as 150 million bytes of accessors through overlapping views.
        const bytes = 60 * 1024 * 1024;
        x.buffers.push({ byteLength: bytes, uri: `data:application/octet-stream;base64,${Buffer.alloc(bytes).toString('base64')}` });
        for (let k = 0; k < 40; k++) {
          x.bufferViews.push({ buffer: 1, byteOffset: 0, byteLength: bytes });
          x.accessors.push({ bufferView: x.bufferViews.length - 1, componentType: 5126, count: bytes / 16, type: 'VEC4' });
        }
      },
    });
    const r = await cli(['import', write('overlap.gltf', j), 'overlap.lod']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/glTF accessor data would allocate 2\.3 GiB, past the decoding memory budget/);
    expect(existsSync(join(tmp, 'overlap.lod'))).toBe(false);
  });

  it('refuses more influences than the format holds unless --limit-influences', async () => {
    const f = write('skin.gltf', triangle({ influences: 6 }));
    const r = await cli(['import', f, 'skin.model']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/vertex 0 has 6 joint influences; a Grimrock model holds 4 \(--limit-influences keeps the strongest 4\) \(glTF nodes\[0\] "Tri"\/meshes\[0\]\)/);
    const ok = await cli(['import', f, 'skin.model', '--limit-influences']);
    expect(ok.code).toBe(0);
    expect(ok.err).toMatch(/3 vertex\(es\) had more than 4 influences; the strongest 4 kept/);
    // LODka holds any number: no option needed.
    expect((await cli(['import', f, 'skin.lod'])).code).toBe(0);
  });

  it('leaves an existing output untouched when the import fails', async () => {
    writeFileSync(join(tmp, 'keep.lod'), 'previous');
    const r = await cli(['import', write('keep.gltf', triangle({ mode: 2 })), 'keep.lod']);
    expect(r.code).toBe(2);
    expect(readFileSync(join(tmp, 'keep.lod'), 'utf8')).toBe('previous');
  });

  it('names the output when its extension is not a format it writes', async () => {
    const r = await cli(['import', write('t.gltf', triangle()), 't.obj']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('lodsmith: t.obj: the output must end in .lod, .p3d, .rtm, .model, .animation, .mesh, .anim\n');
  });
});

describe('lodsmith import: required extensions', () => {
  it('reads KHR_mesh_quantization (integer positions) and refuses Draco with one line', async () => {
    // Positions as normalised signed shorts: (0,0,0), (1,0,0), (0,1,0) scaled to 32767.
    const q = triangle({
      json: (j) => {
        const pos = new Int16Array([0, 0, 0, 0, 32767, 0, 0, 0, 0, 32767, 0, 0]);
        const data = Buffer.from(j.buffers[0].uri.split(',')[1], 'base64');
        const bin = Buffer.concat([Buffer.from(pos.buffer), data.subarray(36)]);
        j.buffers[0] = { byteLength: bin.length, uri: `data:application/octet-stream;base64,${bin.toString('base64')}` };
        j.bufferViews[0] = { buffer: 0, byteOffset: 0, byteLength: 24, byteStride: 8 };
        j.bufferViews[1].byteOffset = 24;
        j.accessors[0] = { bufferView: 0, componentType: 5122, normalized: true, count: 3, type: 'VEC3', min: [0, 0, 0], max: [32767, 32767, 0] };
        j.extensionsUsed = ['KHR_mesh_quantization'];
        j.extensionsRequired = ['KHR_mesh_quantization'];
      },
    });
    const ok = await cli(['import', write('quant.gltf', q), 'quant.lod', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).meshes[0].triangles).toBe(1);
    // Normalised shorts come back as 0..1 floats.
    const out = new Uint8Array(readFileSync(join(tmp, 'quant.lod')));
    const codec = detectFormat(out, 'quant.lod')!;
    expect(Math.max(...Array.from(codec.toScene(codec.decode(out)).meshes[0]!.positions))).toBeCloseTo(1, 6);
    const draco = triangle({ json: (j) => { j.extensionsUsed = ['KHR_draco_mesh_compression']; j.extensionsRequired = ['KHR_draco_mesh_compression']; } });
    const r = await cli(['import', write('draco.gltf', draco), 'draco.lod']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('lodsmith: draco.gltf: the file requires extension(s) KHR_draco_mesh_compression, which LodSmith does not read (glTF extensionsRequired)\n');
  });
});

describe.skipIf(!hasCorpus)('lodsmith import then roundtrip --strict', () => {
  it('every format written from a skinned, animated GLB round-trips byte for byte from its fields', async () => {
    const src = join(corpusDir, 'gltf', 'dmurdoch__rgl2gltf__RiggedSimple.glb');
    const outs = ['r.lod', 'r.p3d', 'r.model', 'r.animation', 'r.mesh', 'r.anim'];
    for (const o of outs) expect((await cli(['import', src, o, '-q'])).code, o).toBe(0);
    const r = await cli(['roundtrip', '--strict', '--json', ...outs]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { strict: boolean; files: { file: string; result: string }[] };
    expect(report.strict).toBe(true);
    expect(report.files.map((x) => [x.file, x.result])).toEqual(outs.map((o) => [o, 'ok']));
  });
});
