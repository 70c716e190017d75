/**
 * `lodsmith repath`: on a copy of a textured corpus folder (a P-drive layout: model, rvmat,
 * textures), it changes exactly the paths under the prefix (bytes compared outside them), every
 * rewritten file round-trips --strict, the previous version is kept, and after the matching folder
 * rename every texture and material resolves again from the root; a dry run writes nothing;
 * ODOL, LODka and generated models too; the matching rules of the prefix.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../shared/formats/index.ts';
import { detectFormat } from '../../shared/formats/registry.ts';
import { p3dGroups, p3dLods } from '../../shared/formats/p3d/editor.ts';
import type { MlodDocument } from '../../shared/formats/p3d/mlod/types.ts';
import { resolveTexture, type TextureLookup } from '../../shared/formats/texture/resolve.ts';
import { repathString, repathText } from '../../shared/model/repath.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../helpers/corpus.ts';
import { runCliIn } from './helpers/memory-io.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lodsmith-repath-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = (args: string[]) => runCliIn(tmp, args);

/** The bytes with every occurrence of each string cut out, as Latin-1 text: what must stay equal. */
function without(bytes: Uint8Array, strings: readonly string[]): string {
  let s = Buffer.from(bytes).toString('latin1');
  for (const x of [...strings].sort((a, b) => b.length - a.length)) s = s.split(x).join('\u0000');
  return s;
}

const lookup: TextureLookup = {
  list: (d) => { try { return readdirSync(d); } catch { return undefined; } },
  isFile: (p) => { try { return statSync(p).isFile(); } catch { return false; } },
};

describe('repath: the prefix', () => {
  it('matches whole folders, case-insensitively, either slash; keeps a leading \\ and proxy: heads', () => {
    expect(repathString('z\\ACE\\addons\\medical\\data\\x_co.paa', 'z\\ace\\addons\\medical', 'mymod\\med')).toBe('mymod\\med\\data\\x_co.paa');
    expect(repathString('\\z/ace/addons/medical/x.rvmat', 'z\\ace\\addons\\medical\\', 'mymod')).toBe('\\mymod/x.rvmat');
    expect(repathString('proxy:\\z\\ace\\seat.001', 'z\\ace', 'mymod')).toBe('proxy:\\mymod\\seat.001');
    expect(repathString('z\\acex\\x.paa', 'z\\ace', 'mymod')).toBeUndefined();
    expect(repathString('a3\\data_f\\x.paa', 'z\\ace', 'mymod')).toBeUndefined();
    const t = repathText('texture = "z\\ace\\n.paa";\n  texture="a3\\x.paa";\n', 'z\\ace', 'm');
    expect(t.text).toBe('texture = "m\\n.paa";\n  texture="a3\\x.paa";\n');
    expect(t.changes.map((c) => c.line)).toEqual([1]);
  });
});

describe.skipIf(!hasCorpus)('lodsmith repath on a copy of a textured corpus folder', () => {
  const root = join(tmp, 'pdrive');
  cpSync(join(corpusDir, 'textured', 'ivbag500'), root, { recursive: true });
  const data = join(root, 'z', 'ace', 'addons', 'medical', 'data');
  const model = join(data, 'IVBag_500ml.p3d');
  const rvmat = join(data, 'IVBag.rvmat');
  const before = { model: readBytes(model), rvmat: readBytes(rvmat) };

  it('--dry-run reports every change and writes nothing', async () => {
    const r = await cli(['repath', '--dry-run', '--from', 'z\\ace\\addons\\medical', '--to', 'mymod\\medical', 'pdrive']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/lods\/0\/faces\/textures\/\d+: z\\ace\\addons\\medical\\data\\ivbag_blood_500ml_ca\.paa -> mymod\\medical\\data\\ivbag_blood_500ml_ca\.paa/);
    expect(r.out).toMatch(/line \d+: z\\ace\\addons\\medical\\data\\IVBag_nohq\.paa -> mymod\\medical\\data\\IVBag_nohq\.paa/);
    expect(r.out).toMatch(/^would change \d+ paths in 2 files of 2 read$/m);
    expect(Buffer.from(readBytes(model)).equals(Buffer.from(before.model))).toBe(true);
    expect(existsSync(`${model}.bak`)).toBe(false);
  });

  it('rewrites exactly the paths, keeps NAME.bak, round-trips --strict; the rename makes every reference resolve again', async () => {
    const r = await cli(['repath', '--json', '--from', 'z\\ace\\addons\\medical', '--to', 'mymod\\medical', 'pdrive']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { files: { file: string; changes: { before: string; after: string }[]; backup: string }[] };
    expect(report.files).toHaveLength(2);
    for (const f of report.files) {
      const abs = join(tmp, f.file);
      expect(f.backup).toBe(`${abs}.bak`);
      const old = f.file.endsWith('.p3d') ? before.model : before.rvmat;
      expect(Buffer.from(readBytes(f.backup)).equals(Buffer.from(old))).toBe(true);
      // Outside the changed strings, the bytes are the same.
      expect(without(readBytes(abs), f.changes.map((c) => c.after))).toBe(without(old, f.changes.map((c) => c.before)));
    }
    const rt = await cli(['roundtrip', '--strict', join('pdrive', 'z', 'ace', 'addons', 'medical', 'data', 'IVBag_500ml.p3d')]);
    expect(rt.code, rt.out).toBe(0);
    // The matching folder rename: z\ace\addons\medical -> mymod\medical.
    mkdirSync(join(root, 'mymod'));
    renameSync(join(root, 'z', 'ace', 'addons', 'medical'), join(root, 'mymod', 'medical'));
    const moved = join(root, 'mymod', 'medical', 'data', 'IVBag_500ml.p3d');
    const bytes = readBytes(moved);
    const doc = detectFormat(bytes, moved)!.decode(bytes) as MlodDocument;
    const refs = new Set<string>();
    for (const l of p3dLods(doc)) for (const g of p3dGroups(doc, l.index)) for (const x of [g.texture, g.material]) if (x) refs.add(x);
    const rv = readFileSync(join(root, 'mymod', 'medical', 'data', 'IVBag.rvmat'), 'latin1');
    for (const m of rv.matchAll(/texture\s*=\s*"([^"#][^"]*)"/g)) if (!m[1]!.startsWith('a3\\')) refs.add(m[1]!);
    expect(refs.size).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref.toLowerCase().startsWith('mymod\\medical\\'), ref).toBe(true);
      // Found from the root (the P-drive), not by the by-name fallback beside the model.
      const hit = resolveTexture(ref, { modelDir: dirname(moved), roots: [root] }, lookup);
      expect(hit.kind === 'file' && hit.via === 'root', `${ref}: ${JSON.stringify(hit)}`).toBe(true);
    }
    // And back again: byte for byte the files it started from.
    const back = await cli(['repath', '--from', 'mymod\\medical', '--to', 'z\\ace\\addons\\medical', 'pdrive']);
    expect(back.code).toBe(0);
    expect(Buffer.from(readBytes(moved)).equals(Buffer.from(before.model))).toBe(true);
    expect(Buffer.from(readBytes(join(root, 'mymod', 'medical', 'data', 'IVBag.rvmat'))).equals(Buffer.from(before.rvmat))).toBe(true);
  });

  it('ODOL models and LODka texture lists: changed paths only, strict round trip, and back to the same bytes', async () => {
    const dir = join(tmp, 'mixed');
    mkdirSync(dir);
    const odol = corpusFiles('p3d_odol').find((f) => f.endsWith('__banana.p3d'))!;
    const files = [[odol, 'banana.p3d', 'z\\ace\\addons\\common', 'mymod\\fruit'], [join(repoRoot, 'build/sample/sample.lod'), 'sample.lod', 'ground.png', 'terrain\\ground.png']] as const;
    for (const [src, name, from, to] of files) {
      const target = join(dir, name);
      writeFileSync(target, readBytes(src));
      const orig = readBytes(target);
      const r = await cli(['repath', '--json', '--from', from, '--to', to, join('mixed', name)]);
      expect(r.code, r.out + r.err).toBe(0);
      const rep = JSON.parse(r.out) as { files: { changes: { before: string; after: string }[] }[] };
      expect(rep.files[0]!.changes.length, name).toBeGreaterThan(0);
      // The new paths are in the file (an ODOL's LOD offsets move with the longer strings, so the
      // proof that nothing else changed is the way back below, to the same bytes).
      const now = Buffer.from(readBytes(target)).toString('latin1');
      for (const c of rep.files[0]!.changes) expect(now.includes(c.after.replace(/^proxy:/, '')), c.after).toBe(true);
      expect((await cli(['roundtrip', '--strict', join('mixed', name)])).code, name).toBe(0);
      const back = await cli(['repath', '--from', to, '--to', from, join('mixed', name)]);
      expect(back.code).toBe(0);
      expect(Buffer.from(readBytes(target)).equals(Buffer.from(orig)), name).toBe(true);
    }
  });
});
