/**
 * The process's own output (main/cli/io.ts FdOut) and what a short command loads in the prebuilt
 * CLI: both are start-up cost that the bench's whole-process rows measure, kept here as behaviour.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { FdOut } from '../../main/cli/io.ts';
import { buildLod, buildMlod, buildSampleMlod } from '../../scripts/fixtures/mlod.ts';
import { buildSampleLod } from '../../scripts/fixtures/lodka.ts';
import { lodkaCodec } from '../../shared/formats/lodka/codec.ts';
import { mlodCodec } from '../../shared/formats/p3d/mlod/codec.ts';
import { grimrockModelCodec } from '../../shared/formats/grimrock/model-codec.ts';
import { allFloatModel } from '../../scripts/fixtures/grimrock.ts';
import { repoRoot } from '../helpers/corpus.ts';
import { MODULES } from '../../scripts/prebuilt.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-output-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A stand-in for process.stdout that records what reaches it. */
function fakeStream(): NodeJS.WriteStream & { got: Buffer[] } {
  const s = new EventEmitter() as unknown as NodeJS.WriteStream & { got: Buffer[] };
  s.got = [];
  (s as { write: unknown }).write = (c: string | Uint8Array) => {
    s.got.push(Buffer.from(c));
    return true;
  };
  return s;
}

describe('FdOut', () => {
  it('writes strings and bytes to the descriptor in order, without creating the stream', () => {
    const file = join(tmp, 'out.txt');
    const fd = openSync(file, 'w');
    let opened = 0;
    const out = new FdOut(fd, () => {
      opened++;
      return fakeStream();
    });
    out.write('héllo ');
    out.write(new Uint8Array([0x77, 0x6f, 0x72, 0x6c, 0x64]));
    out.write('\n');
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('héllo world\n');
    expect(opened).toBe(0);
  });

  it('finishes a partial write, and on EAGAIN hands the rest and everything after to the stream', () => {
    const file = join(tmp, 'partial.txt');
    const fd = openSync(file, 'w');
    const stream = fakeStream();
    let calls = 0;
    // Writes at most 3 bytes a call; the third call finds the descriptor full.
    const writer = (f: number, b: Uint8Array, off: number): number => {
      if (++calls === 3) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
      return writeSync(f, b, off, Math.min(3, b.length - off));
    };
    const out = new FdOut(fd, () => stream, writer);
    expect(out.write('abcdefghij')).toBe(true);
    out.write('klm');
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('abcdef');
    expect(Buffer.concat(stream.got).toString()).toBe('ghijklm');
    expect(stream.listenerCount('error')).toBe(1);
  });

  it('rethrows an error that is neither EAGAIN nor EPIPE', () => {
    const out = new FdOut(1, () => fakeStream(), () => {
      throw Object.assign(new Error('EIO'), { code: 'EIO' });
    });
    expect(() => out.write('x')).toThrow('EIO');
  });
});

describe('prebuilt CLI start-up', () => {
  const tiny = join(tmp, 'tiny.p3d');
  writeFileSync(tiny, mlodCodec.encode(buildSampleMlod()));

  it('info on an MLOD file loads the core and the P3D chunks only, and none of Node\'s streams', () => {
    const record = join(tmp, 'record.cjs');
    // Runs before the launcher: notes every file read (the launcher reads each chunk it loads
    // with fs.readFileSync) and at exit writes them with Node's internal modules.
    writeFileSync(
      record,
      [
        "const fs = require('node:fs');",
        'const read = fs.readFileSync;',
        'const files = [];',
        'fs.readFileSync = function (f, ...rest) { if (typeof f === "string") files.push(f); return read.call(this, f, ...rest); };',
        `process.on('exit', () => fs.writeFileSync(${JSON.stringify(join(tmp, 'loaded.json'))}, JSON.stringify({ loaded: [...files, ...Object.keys(require.cache)], internal: process.moduleLoadList })));`,
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, ['-r', record, join(repoRoot, 'bin/lodsmith.cjs'), 'info', tiny], { encoding: 'utf8', env: { ...process.env, LODSMITH_CODE_CACHE: 'off' } });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('P3D model (MLOD');
    const { loaded, internal } = JSON.parse(readFileSync(join(tmp, 'loaded.json'), 'utf8')) as { loaded: string[]; internal: string[] };
    const chunkFiles = [...new Set(loaded.filter((id) => /chunks[\\/][^\\/]+\.cjs$/.test(id)))];
    const chunks = chunkFiles.map((id) => id.replace(/^.*chunks[\\/]|-[\w-]{8}\.cjs$/g, '')).sort();
    expect(chunks).toContain('format-mlod');
    // No texture, ODOL, glTF, commander or compression code: only what info on MLOD needs.
    expect(chunks.filter((c) => !['core', 'rolldown-runtime', 'info', 'format-mlod', 'format-p3d'].includes(c))).toEqual([]);
    // ... nor inside those chunks: the build lists the modules of each chunk. (The P3D editor once
    // imported ODOL's record factory, which brought ODOL's schema, array reader and LZO/LZSS into
    // the chunk MLOD shares with ODOL.)
    const byChunk = JSON.parse(readFileSync(join(repoRoot, 'out/cli', MODULES), 'utf8')) as Record<string, string[]>;
    const modules = chunkFiles.flatMap((id) => byChunk[`chunks/${id.replace(/^.*chunks[\\/]/, '')}`] ?? []);
    expect(modules).toContain('shared/formats/p3d/mlod/decode.ts');
    expect(modules.filter((m) => /binary\/(lzo1x|lzss)|p3d\/odol\/(?!face-offsets)|formats\/texture\/(?!extensions)/.test(m))).toEqual([]);
    // Neither stream modules (process.stdout), fs/promises (an ES import of node:fs), nor the
    // folder reader that reading fs.Dir loads (a destructuring of every name node:fs exports).
    expect(internal.filter((m) => /internal\/streams\/(readable|writable)|internal\/fs\/(promises|dir)\b/.test(m))).toEqual([]);
  });

  /** `lodsmith info` on a file (the tiny MLOD) with the code cache in `dir`, saying what the cache did. */
  const infoWithCache = (dir: string, file = tiny) => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), 'info', file], { encoding: 'utf8', env: { ...process.env, LODSMITH_CODE_CACHE: dir, LODSMITH_TRACE_LAUNCH: 'cache' } });
    expect(r.status).toBe(0);
    const said = (what: RegExp) => r.stderr.split('\n').flatMap((l) => l.match(what)?.[1] ?? []).sort();
    return { out: r.stdout, used: said(/code cache: (\S+) used$/), missing: said(/code cache: (\S+) none$/), rejected: said(/code cache: (\S+) rejected$/), saved: said(/code cache: saved (\S+)$/) };
  };

  it('saves a code cache of each chunk after its first run and compiles from it on the next', () => {
    const dir = join(tmp, 'code-cache');
    const first = infoWithCache(dir);
    expect(first.out).toContain('P3D model (MLOD');
    expect(first.missing.some((c) => c.startsWith('format-mlod-'))).toBe(true);
    expect(first.used).toEqual([]);
    // One cache per chunk and command, in a folder of this Node's version, and a marker naming
    // the set of chunks the command has loaded.
    expect(first.saved).toEqual(first.missing.map((c) => `${c}.info`));
    const folder = join(dir, `${process.version}-${process.arch}`);
    const markers = readdirSync(folder).filter((f) => /^runs\.info\.[0-9a-f]{8}$/.test(f));
    expect(markers).toHaveLength(1);
    expect(readdirSync(folder).sort()).toEqual([...first.saved, markers[0]!].sort());
    expect(readFileSync(join(folder, markers[0]!), 'utf8')).toBe(`${first.missing.join(' ')}\n`);
    const second = infoWithCache(dir);
    expect(second.used).toEqual(first.missing);
    expect(second.missing).toEqual([]);
    expect(second.saved).toEqual([]);
    expect(second.out).toBe(first.out);
  });

  it('saves the core chunk again when the command first runs on another format, then uses it', () => {
    const dir = join(tmp, 'code-cache-formats');
    const lod = join(tmp, 'sample.lod');
    writeFileSync(lod, lodkaCodec.encode(buildSampleLod()));
    const mlod = infoWithCache(dir);
    const core = mlod.saved.find((c) => c.startsWith('core-'))!;
    const file = join(dir, `${process.version}-${process.arch}`, core);
    const mlodCacheBytes = statSync(file).size;
    // LODKA's info calls core functions MLOD's did not: the core cache is used, then saved again
    // with them (it grows), beside the LODKA chunk's first cache.
    const first = infoWithCache(dir, lod);
    expect(first.out).toContain('LODka');
    expect(first.used).toContain(core.replace(/\.info$/, ''));
    expect(first.saved).toContain(core);
    expect(first.saved.some((c) => c.startsWith('format-lodka-'))).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(mlodCacheBytes);
    // Both sets of chunks are known now: nothing is saved again.
    expect(infoWithCache(dir, lod).saved).toEqual([]);
    expect(infoWithCache(dir).saved).toEqual([]);
  });

  it('replaces a cache that V8 refuses, and runs as without one', () => {
    const dir = join(tmp, 'code-cache-bad');
    const first = infoWithCache(dir);
    const core = first.saved.find((c) => c.startsWith('core-'))!;
    const file = join(dir, `${process.version}-${process.arch}`, core);
    // Same size, other bytes: what a cache of another build or another Node looks like to V8.
    writeFileSync(file, Buffer.alloc(statSync(file).size, 0x5a));
    const bad = infoWithCache(dir);
    expect(bad.out).toBe(first.out);
    expect(bad.rejected).toEqual([core.replace(/\.info$/, '')]);
    expect(bad.saved).toEqual([core]);
    expect(infoWithCache(dir).rejected).toEqual([]);
  });

  /**
   * Start-up's young-generation garbage. V8 collects its young heap (1 MB of new space for Node
   * 22 on 64-bit) when it is full, and again at exit once it is ~3/4 full: a scavenge of 1-5 ms
   * in a ~60 ms `info` (docs/performance.md, "Start-up"). What fills it is allocation, not time,
   * so the bytes are the same on every run: this counts them with a 16 MB new space (no
   * collection resets the count; a flag of its own, so its own code cache), at exit, against a
   * bare `node -e 0` counted the same way: ~715 kB more (~1,364 kB before run C). Joining the
   * wrapper to each chunk's text again (+260 kB) or chunks with their whitespace (+110 kB) break
   * the budget. The file lies in a folder of the checkout's out/, not the system's temporary
   * folder: info looks for a model.cfg in every folder up to the root and lists each (a /tmp of
   * thousands of entries would be counted too).
   */
  it('info on a tiny MLOD allocates at most 800 kB of young heap more than a bare node -e 0', () => {
    const count = join(tmp, 'young.cjs');
    writeFileSync(
      count,
      [
        "const v8 = require('node:v8');",
        "const fs = require('node:fs');",
        "process.on('exit', () => fs.writeFileSync(process.env.YOUNG_OUT, String(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size)));",
      ].join('\n'),
    );
    const dir = join(tmp, 'code-cache-young');
    const young = (args: string[]): number => {
      const out = join(tmp, 'young.txt');
      const r = spawnSync(process.execPath, ['--min-semi-space-size=16', '-r', count, ...args], { encoding: 'utf8', env: { ...process.env, LODSMITH_CODE_CACHE: dir, YOUNG_OUT: out } });
      expect(r.status).toBe(0);
      return Number(readFileSync(out, 'utf8'));
    };
    // The size of the smallest corpus MLOD (one LOD, a textured quad): start-up, not decoding.
    const near = mkdtempSync(join(repoRoot, 'out', 'young-'));
    onTestFinished(() => rmSync(near, { recursive: true, force: true }));
    const quad = join(near, 'quad.p3d');
    writeFileSync(quad, mlodCodec.encode(buildMlod([buildLod({ resolution: 0, points: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], faces: [[0, 1, 2], [0, 2, 3]], textures: ['data\\quad_co.paa', 'data\\quad_co.paa'] })])));
    const info = [join(repoRoot, 'bin/lodsmith.cjs'), 'info', quad];
    young(info); // makes the code caches (of this flag's V8)
    const bare = young(['-e', '0']);
    const ours = young(info);
    expect(ours - bare).toBeGreaterThan(0);
    expect((ours - bare) / 1024).toBeLessThan(800);
  });

  it('info on a Grimrock model loads its own chunk and the shared scene math, not the LODka codec', () => {
    const model = join(tmp, 'sample.model');
    writeFileSync(model, grimrockModelCodec.encode(allFloatModel()));
    const r = infoWithCache(join(tmp, 'code-cache-grimrock'), model);
    expect(r.out).toContain('Grimrock');
    const chunks = r.missing.map((c) => c.replace(/-[\w-]{8}\.cjs$/, '')).sort();
    expect(chunks).toContain('format-grimrock');
    // The matrix and up-axis helpers LODka shares with the other families once sat in LODka's
    // chunk, and Grimrock's info loaded all of it (~90 kB more young heap: docs/performance.md).
    expect(chunks.filter((c) => c.startsWith('format-') && c !== 'format-grimrock')).toEqual([]);
  });

  it('writes no cache with LODSMITH_CODE_CACHE=off', () => {
    const off = infoWithCache('off');
    expect(off.out).toContain('P3D model (MLOD');
    expect([...off.used, ...off.missing, ...off.saved]).toEqual([]);
  });
});
