/**
 * Texture rows: BC1/BC3 decode speed (MB/s of RGBA written per CPU second, goal >= 1 GB/s; timed
 * beside the decoder of DXT_DECODE_BASELINE, taken from git, in alternating rounds), a real LZO-compressed
 * PAA's top mip decoded (its LZO stream also timed through liblzo2, the measuring stick), and
 * PNG -> PAA of a 2048x2048 picture as `lodsmith texture` runs it (goal: <= 0.5x the pipeline of
 * PNG_TO_PAA_BASELINE, taken from git and timed in the same run). The BCn encoder is our own (no
 * npm package was usable, see shared/formats/texture/dxt.ts), so its speed is one of these rows.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { lzo1xCompress, lzo1xDecompress } from '../../shared/binary/lzo1x.ts';
import { decodeBlocks, encodeBlocks } from '../../shared/formats/texture/dxt.ts';
import { downsample } from '../../shared/formats/texture/image.ts';
import { createPaa, decodePaa, decodePaaMip, encodePaa, mipDataSize } from '../../shared/formats/texture/paa.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
import { nodeInflate } from '../../main/documents/png-inflate.ts';
import { corpusFiles, readBytes } from '../../test/helpers/corpus.ts';
import { importAtCommit } from './baseline.ts';
import { buildLzoStick, stickDecompress } from './lzo-stick.ts';
import { Prng } from '../../fuzz/lib/prng.ts';
import type { Row } from './report.ts';
import { mbPerSecond, median, memcpyMbPerSecond, timeIt, type TimingPlan } from './timing.ts';

export const DXT_DECODE_TARGET_MBPS = 1000;
/**
 * The BCn decoder before it was made faster for issue 26 (goal 6; its decode is the same as at
 * PNG_TO_PAA_BASELINE): taken from git and timed beside the current one in alternating rounds, so
 * the decode rows say how much faster the code is whatever the machine's load.
 */
export const DXT_DECODE_BASELINE = 'ec20cbb63d2ea850a53ed6fd056d6282774bd574';
/** Issue 26, goal 6: PNG -> PAA in at most this fraction of the time of the pipeline at PNG_TO_PAA_BASELINE. */
export const PNG_TO_PAA_TARGET_RATIO = 0.5;
/**
 * "Today's" PNG -> PAA (issue 26): the last commit before it was made faster (fast-png's decode,
 * the extremes-then-refit DXT fit, the per-texel AVGC). Its shared/ is taken from git and timed
 * beside the current code, in alternating rounds.
 */
export const PNG_TO_PAA_BASELINE = '898a7b9969ec0226a0cdf591f736cf7c543a622d';

/** A 2048x2048 picture with gradients, noise and a soft alpha edge (so both encoders work). */
function picture(side: number, alpha: boolean): Uint8Array {
  const rnd = new Prng(11);
  const d = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const o = (y * side + x) * 4;
      const n = rnd.int(24);
      d[o] = ((x * 255) / side + n) & 255;
      d[o + 1] = ((y * 255) / side + n) & 255;
      d[o + 2] = (((x ^ y) & 255) + n) & 255;
      d[o + 3] = alpha ? Math.max(0, Math.min(255, ((x - side / 3) * 255) / (side / 8))) : 255;
    }
  }
  return d;
}

interface Squish {
  compress(rgba: Uint8Array, width: number, height: number, flags: number): Uint8Array;
  flags: { DXT1: number; ColourRangeFit: number; ColourClusterFit: number };
}

/** dxt-js (a CommonJS module), or null when it is not installed. */
function loadSquish(): Squish | null {
  try {
    return createRequire(import.meta.url)('dxt-js') as Squish;
  } catch {
    return null;
  }
}

export async function benchTextures(plan: TimingPlan, quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const side = 2048;
  const rgbaBytes = side * side * 4;
  const memcpy = memcpyMbPerSecond(rgbaBytes, plan);
  log('textures: BC1/BC3 decode, beside the decoder of ' + DXT_DECODE_BASELINE.slice(0, 9));
  const out = new Uint8Array(rgbaBytes);
  const out2 = new Uint8Array(rgbaBytes);
  const baseDecoder = await importAtCommit(DXT_DECODE_BASELINE, ['shared/formats/texture/dxt.ts']);
  try {
    for (const [fmt, label, alpha] of [['bc1', 'DXT1', false], ['bc3', 'DXT5', true]] as const) {
      const blocks = encodeBlocks(fmt, picture(side, alpha), side, side);
      const ours = (): void => decodeBlocks(fmt, blocks, 0, side, side, out);
      // CPU time of `reps` calls (a call is ~10 ms: several make a sample the clock can resolve).
      const reps = 4;
      const cpuPerCall = (f: () => void): number => {
        const t = process.cpuUsage();
        for (let i = 0; i < reps; i++) f();
        const d = process.cpuUsage(t);
        return (d.user + d.system) / 1e6 / reps;
      };
      const wall = mbPerSecond(rgbaBytes, timeIt(ours, plan));
      const row: Row = { section: 'texture', subject: label, input: `${side}x${side} generated`, bytes: rgbaBytes, metric: 'decode (MB/s of RGBA out, CPU)', value: null, unit: 'MB/s', target: `>= ${DXT_DECODE_TARGET_MBPS} MB/s`, verdict: 'MISS' };
      const rounds = quick ? 3 : 7;
      const tOurs: number[] = [], ratios: number[] = [], tTheirs: number[] = [];
      let note = `wall ${wall.toFixed(0)} MB/s`;
      if ('reason' in baseDecoder) {
        for (let r = 0; r < rounds; r++) tOurs.push(cpuPerCall(ours));
        note += `; not compared: ${baseDecoder.reason}`;
      } else {
        const old = baseDecoder.modules[0] as { decodeBlocks: typeof decodeBlocks };
        const theirs = (): void => old.decodeBlocks(fmt, blocks, 0, side, side, out2);
        ours();
        theirs();
        if (!out.every((v, i) => v === out2[i])) note += '; OUTPUT DIFFERS from the earlier decoder';
        // Alternating rounds (the machine's load moves both alike); the ratio is the median of the rounds' ratios.
        for (let r = 0; r < rounds; r++) {
          const a = cpuPerCall(ours);
          const b = cpuPerCall(theirs);
          tOurs.push(a); tTheirs.push(b); ratios.push(b / a);
        }
        note += `; ${median(ratios).toFixed(2)}x the speed of the decoder at ${DXT_DECODE_BASELINE.slice(0, 9)} (${mbPerSecond(rgbaBytes, median(tTheirs)).toFixed(0)} MB/s; CPU time, median of ${rounds} alternating rounds' ratios, ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
      }
      const v = mbPerSecond(rgbaBytes, median(tOurs));
      rows.push({ ...row, value: v, vsMemcpy: v / memcpy, verdict: v >= DXT_DECODE_TARGET_MBPS ? 'PASS' : 'MISS', note });
    }
  } finally {
    if (!('reason' in baseDecoder)) baseDecoder.dispose();
  }

  log('textures: PAA with LZO mips');
  const real = corpusFiles('paa').map((f) => ({ f, b: readBytes(f) })).map((x) => ({ ...x, doc: decodePaa(x.b) }))
    .filter((x) => x.doc.mips[0]!.compression === 'lzo')
    .sort((a, b) => b.doc.mips[0]!.width * b.doc.mips[0]!.height - a.doc.mips[0]!.width * a.doc.mips[0]!.height)[0];
  if (!real) {
    rows.push({ section: 'texture', subject: 'PAA (LZO mips)', input: 'corpus', bytes: 0, metric: 'top mip decode', value: null, unit: 'MB/s', verdict: 'MISS', note: 'not measured: no LZO-compressed PAA in the corpus' });
  } else {
    const m = real.doc.mips[0]!;
    const name = real.f.split('/').pop()!.replace(/^[^_]+__[^_]+__/, '');
    const px = m.width * m.height * 4;
    const s = timeIt(() => decodePaaMip(real.doc, 0), plan);
    const v = mbPerSecond(px, s);
    rows.push({ section: 'texture', subject: 'PAA (LZO mips)', input: `${name} ${m.width}x${m.height}`, bytes: real.b.length, metric: 'top mip: LZO + DXT decode (MB/s of RGBA out)', value: v, unit: 'MB/s', vsMemcpy: v / mbPerSecond(px, timeIt(() => out.slice(0, px), plan)), verdict: '-' });
    const size = mipDataSize(real.doc.type, m.width, m.height);
    const ours = mbPerSecond(size, timeIt(() => lzo1xDecompress(m.stored, 0, size), plan));
    rows.push({ section: 'texture', subject: 'PAA (LZO mips)', input: `${name} top mip stream`, bytes: size, metric: 'LZO decompress (ours)', value: ours, unit: 'MB/s', verdict: '-' });
    const stick = buildLzoStick();
    if (stick.ok) {
      const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-paa-'));
      try {
        writeFileSync(join(dir, 'mip.lzo'), m.stored);
        const c = mbPerSecond(size, stickDecompress(stick, join(dir, 'mip.lzo'), size, plan.runs, plan.minRunMs / 1000));
        rows.push({ section: 'texture', subject: 'PAA (LZO mips)', input: `${name} top mip stream`, bytes: size, metric: 'LZO decompress (liblzo2 C)', value: c, unit: 'MB/s', verdict: '-', note: `ours / C = ${(ours / c).toFixed(2)}` });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      rows.push({ section: 'texture', subject: 'PAA (LZO mips)', input: `${name} top mip stream`, bytes: size, metric: 'LZO decompress (liblzo2 C)', value: null, unit: 'MB/s', verdict: 'n/a', note: `measuring stick unavailable: ${stick.reason}` });
    }
  }

  log('textures: PNG -> PAA 2048x2048, beside the pipeline of ' + PNG_TO_PAA_BASELINE.slice(0, 9));
  const encodeRuns = { ...plan, warmup: quick ? 0 : 1, runs: quick ? 1 : 3, minRunMs: 0 };
  const base = await importAtCommit(PNG_TO_PAA_BASELINE, ['shared/formats/texture/png.ts', 'shared/formats/texture/paa.ts']);
  try {
    for (const alpha of [false, true]) {
      const png = encodePng({ width: side, height: side, data: picture(side, alpha) });
      // As `lodsmith texture IN.png OUT.paa` runs it (main/cli/texture-load.ts passes Node's zlib).
      const ours = (): Uint8Array => encodePaa(createPaa(decodePng(png, { inflate: nodeInflate })));
      const input = `${side}x${side} generated, ${alpha ? 'alpha -> DXT5' : 'opaque -> DXT1'}`;
      // The stages on their own (what the total is made of), for whoever tunes it next.
      const img = decodePng(png, { inflate: nodeInflate });
      const levels = [img];
      while (Math.min(levels[levels.length - 1]!.width, levels[levels.length - 1]!.height) > 4) levels.push(downsample(levels[levels.length - 1]!));
      const fmt = alpha ? 'bc3' : 'bc1';
      const blocks = levels.map((l) => encodeBlocks(fmt, l.data, l.width, l.height));
      const stage = (f: () => unknown): string => `${(timeIt(f, encodeRuns) * 1000).toFixed(0)}`;
      const stages = `PNG decode ${stage(() => decodePng(png, { inflate: nodeInflate }))} ms (zlib's inflate alone ${stage(() => inflateOnly(png))} ms), mips ${stage(() => { let l = img; while (Math.min(l.width, l.height) > 4) l = downsample(l); return l; })} ms, ` +
        `DXT ${stage(() => levels.map((l) => encodeBlocks(fmt, l.data, l.width, l.height)))} ms, LZO ${stage(() => blocks.filter((_, i) => levels[i]!.width > 128).map((b) => lzo1xCompress(b)))} ms (AVGC is summed by the first halving)`;
      const row: Row = { section: 'texture', subject: 'PNG -> PAA', input, bytes: png.length, metric: 'PNG decode + mips + DXT + LZO + tags (CPU)', value: null, unit: 's', target: `<= ${PNG_TO_PAA_TARGET_RATIO}x ${PNG_TO_PAA_BASELINE.slice(0, 9)}`, verdict: 'MISS' };
      if ('reason' in base) {
        const s = timeIt(ours, encodeRuns);
        rows.push({ ...row, metric: 'PNG decode + mips + DXT + LZO + tags', value: s, note: `not compared: ${base.reason}; ${stages}` });
        continue;
      }
      const [oldPng, oldPaa] = base.modules as [{ decodePng: (b: Uint8Array) => unknown }, { createPaa: (i: unknown) => unknown; encodePaa: (d: unknown) => Uint8Array }];
      const theirs = (): Uint8Array => oldPaa.encodePaa(oldPaa.createPaa(oldPng.decodePng(png)));
      // Alternating rounds (the machine's load moves both alike); the ratio is the median of the rounds' ratios.
      ours();
      theirs();
      const rounds = quick ? 3 : 7;
      const tOurs: number[] = [], tTheirs: number[] = [], ratios: number[] = [];
      // CPU time: the work done, which a machine shared with other processes moves much less than
      // the wall clock (one thread: the two are the same on a quiet machine).
      const cpu = (f: () => unknown): number => {
        const t = process.cpuUsage();
        f();
        const d = process.cpuUsage(t);
        return (d.user + d.system) / 1e6;
      };
      for (let r = 0; r < rounds; r++) {
        const a = cpu(ours);
        const b = cpu(theirs);
        tOurs.push(a); tTheirs.push(b); ratios.push(a / b);
      }
      const ratio = median(ratios);
      rows.push({
        ...row, value: median(tOurs), verdict: ratio <= PNG_TO_PAA_TARGET_RATIO ? 'PASS' : 'MISS',
        note: `CPU time ${ratio.toFixed(2)}x the pipeline at ${PNG_TO_PAA_BASELINE.slice(0, 9)} (${(median(tTheirs) * 1000).toFixed(0)} ms; median of ${rounds} alternating rounds' ratios, ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); wall ${(timeIt(ours, encodeRuns) * 1000).toFixed(0)} ms; ${stages}`,
      });
    }
  } finally {
    if (!('reason' in base)) base.dispose();
  }

  // The BC1 encoder against libsquish (dxt-js, its emscripten build): same picture, top level only,
  // speed and the RGB error after decoding (our decoder for all three).
  log('textures: BC1 encoders side by side');
  const pic = picture(side, false);
  const rmse = (blocks: Uint8Array): string => {
    decodeBlocks('bc1', blocks, 0, side, side, out);
    let se = 0;
    for (let i = 0; i < out.length; i += 4) for (let k = 0; k < 3; k++) se += (out[i + k]! - pic[i + k]!) ** 2;
    return Math.sqrt(se / (side * side * 3)).toFixed(2);
  };
  const candidates: { name: string; encode: () => Uint8Array }[] = [{ name: 'ours (principal axis + refit)', encode: () => encodeBlocks('bc1', pic, side, side) }];
  const squish = loadSquish();
  if (squish) {
    candidates.push({ name: 'dxt-js range fit', encode: () => squish.compress(pic, side, side, squish.flags.DXT1 | squish.flags.ColourRangeFit) });
    candidates.push({ name: 'dxt-js cluster fit', encode: () => squish.compress(pic, side, side, squish.flags.DXT1 | squish.flags.ColourClusterFit) });
  }
  const psnr: { name: string; db: number }[] = [];
  for (const c of candidates) {
    const once = { warmup: 0, runs: 1, minRunMs: 0 };
    const s = timeIt(c.encode, c.name.includes('cluster') || quick ? once : encodeRuns);
    const e = Number(rmse(c.encode()));
    psnr.push({ name: c.name, db: 20 * Math.log10(255 / e) });
    rows.push({ section: 'texture', subject: 'BC1 encode', input: `${side}x${side} generated, top level`, bytes: pic.length, metric: c.name, value: s, unit: 's', verdict: '-', note: `RGB RMSE ${e.toFixed(2)}, PSNR ${psnr[psnr.length - 1]!.db.toFixed(2)} dB` });
  }
  // Issue 26, goal 6: our encoder's quality at least that of the best npm encoder measured beside it.
  const [ours, ...peers] = psnr;
  const best = peers.reduce<{ name: string; db: number } | undefined>((a, b) => (!a || b.db > a.db ? b : a), undefined);
  rows.push({
    section: 'texture', subject: 'BC1 encode', input: `${side}x${side} generated, top level`, bytes: pic.length, metric: 'PSNR ours - best npm encoder', value: best ? ours!.db - best.db : null, unit: 'count',
    target: '>= 0 dB', verdict: best && ours!.db >= best.db ? 'PASS' : 'MISS',
    note: best ? `ours ${ours!.db.toFixed(2)} dB, best npm encoder (${best.name}) ${best.db.toFixed(2)} dB against the source picture; the value is in dB` : 'not measured: no npm DXT encoder to compare with (dxt-js is a dev dependency)',
  });
  if (!squish) rows.push({ section: 'texture', subject: 'BC1 encode', input: `${side}x${side} generated, top level`, bytes: pic.length, metric: 'dxt-js', value: null, unit: 's', verdict: 'MISS', note: 'not measured: dxt-js is not installed (a dev dependency)' });
  return rows;
}

/** The PNG's IDAT stream through Node's zlib alone: the floor of the PNG decode stage. */
function inflateOnly(png: Uint8Array): Uint8Array {
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  for (let p = 8; p + 12 <= png.length; p += 12 + dv.getUint32(p)) {
    if (dv.getUint32(p + 4) === 0x49444154) parts.push(png.subarray(p + 8, p + 8 + dv.getUint32(p)));
  }
  return inflateSync(Buffer.concat(parts));
}

export const TEXTURED_FRAME_TARGET_S = 0.5;

/** Counts the renderer's marks before the app loads: the first `doc:open` sent, every textured frame. */
const TEXTURE_PROBE = `(() => {
  const w = window;
  w.__lodsmithTex = { open: -1, drawn: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'lodsmith:invoke:doc:open:sent' && w.__lodsmithTex.open < 0) w.__lodsmithTex.open = e.startTime;
      if (e.name === 'lodsmith:texture:drawn') w.__lodsmithTex.drawn.push(e.startTime);
    }
  }).observe({ entryTypes: ['mark'] });
})();`;

/**
 * Writes the textured preview's input into `dir`: `box.p3d`, an MLOD box whose faces use two
 * 2048x2048 PAAs (`body_co.paa` DXT1, `glass_ca.paa` DXT5, LZO mips, as TexView writes them)
 * beside it. Returns the model's bytes.
 */
export async function writeTexturedBox(dir: string): Promise<Uint8Array> {
  const { buildLod, buildMlod, cube } = await import('../../scripts/fixtures/mlod.ts');
  const { encodeMlod } = await import('../../shared/formats/p3d/mlod/encode.ts');
  const side = 2048;
  writeFileSync(join(dir, 'body_co.paa'), encodePaa(createPaa({ width: side, height: side, data: picture(side, false) })));
  writeFileSync(join(dir, 'glass_ca.paa'), encodePaa(createPaa({ width: side, height: side, data: picture(side, true) })));
  const c = cube(1);
  const model = encodeMlod(buildMlod([buildLod({
    resolution: 1, ...c, normals: c.points.map((v) => -v * Math.SQRT2), uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]),
    textures: c.faces.map((_, i) => (i < 3 ? 'P:\\bench\\body_co.paa' : 'P:\\bench\\glass_ca.paa')),
  })]));
  writeFileSync(join(dir, 'box.p3d'), model);
  return model;
}

/**
 * Open -> first textured frame: a P3D box whose faces use two 2048x2048 PAAs (DXT1 and DXT5, LZO
 * mips, as TexView writes them), opened in the browser host; from the renderer sending `doc:open`
 * to the first frame drawn with both textures (host decode of the model, scene, both PAA
 * decodes and PNG re-encodes in the host, image decode and upload in the page).
 */
export async function benchTexturedFirstFrame(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const base: Row = { section: 'texture', subject: 'preview', input: 'P3D box, two 2048x2048 PAA', bytes: 0, metric: 'open -> first textured frame', value: null, unit: 's', target: `< ${TEXTURED_FRAME_TARGET_S * 1000} ms`, verdict: 'MISS' };
  const { previewPrerequisites, chromiumPath, ensureRenderer } = await import('./preview-hook.ts');
  const missing = previewPrerequisites();
  if (missing.length) return [{ ...base, note: `not measured: missing ${missing.join(', ')}` }];
  let rendererDir: string;
  try {
    rendererDir = await ensureRenderer(log);
  } catch (e) {
    return [{ ...base, note: `not measured: the renderer could not be built: ${(e as Error).message.split('\n')[0]}` }];
  }
  const { startHost } = await import('../../main/host/server.ts');
  const { chromium } = (await import('playwright-core')) as { chromium: { launch(o: Record<string, unknown>): Promise<any> } };
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-textured-'));
  log('textures: writing the 2048x2048 PAAs for the textured preview');
  const model = await writeTexturedBox(dir);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
  const samples: number[] = [];
  try {
    const runs = quick ? 1 : 3;
    for (let i = 0; i < runs + 1; i++) {
      // A new host each run: no document left open from the run before (the page would restore
      // it instead of opening it), no decoded texture cached.
      const host = await startHost({ roots: [dir], configDir: join(dir, `config-${i}`), samplePath: null, rendererDir, version: 'bench', log: () => undefined });
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      try {
        await page.addInitScript(TEXTURE_PROBE);
        // The token is in the address's fragment; the file to open is a query parameter before it.
        const at = new URL(host.url);
        await page.goto(`${at.origin}/?open=${encodeURIComponent(`${basename(dir)}/box.p3d`)}${at.hash}`);
        await page.waitForFunction(() => (window as any).__lodsmithTex.drawn.length >= 1 && (window as any).__lodsmithTex.open >= 0, undefined, { timeout: 60_000 }).catch(async (e: Error) => {
          if (process.env.LODSMITH_BENCH_DEBUG) {
            await page.screenshot({ path: join(tmpdir(), 'lodsmith-bench-textured.png') });
            log(`textured preview page state: ${JSON.stringify(await page.evaluate(() => (window as any).__lodsmithTex))} ${JSON.stringify(await page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name)))}`);
          }
          throw e;
        });
        // Both textures may arrive before one frame: the last textured frame once no more come is
        // the first frame with every texture.
        let t = (await page.evaluate(() => (window as any).__lodsmithTex)) as { open: number; drawn: number[] };
        for (let quiet = 0; quiet < 2; ) {
          await page.waitForTimeout(750);
          const next = (await page.evaluate(() => (window as any).__lodsmithTex)) as { open: number; drawn: number[] };
          quiet = next.drawn.length === t.drawn.length ? quiet + 1 : 0;
          t = next;
        }
        if (process.env.LODSMITH_BENCH_DEBUG) log(`marks: ${JSON.stringify(await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name.slice(9)} ${m.startTime.toFixed(0)}`)))} open ${t.open.toFixed(0)}`);
        if (i > 0) samples.push((t.drawn[t.drawn.length - 1]! - t.open) / 1000);
      } finally {
        await page.close();
        await host.close();
      }
    }
  } catch (e) {
    return [{ ...base, note: `not measured: ${(e as Error).message.split('\n')[0]}` }];
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const s = median(samples);
  return [{ ...base, bytes: model.length, value: s, verdict: s < TEXTURED_FRAME_TARGET_S ? 'PASS' : 'MISS', note: `median of ${samples.length} open(s) after 1 warm-up (${samples.map((x) => (x * 1000).toFixed(0)).join(', ')} ms); WebGL in SwiftShader` }];
}
