/**
 * glTF import: a generated 1M-triangle GLB imported into every format LodSmith writes. Speed is
 * reported as a ratio to exporting the same model (the imported file decoded, turned into a scene
 * and written as GLB), goal >= 0.5x; peak memory (fresh process) goal <= 3N + 64 MB for a GLB of
 * N bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sceneToGltf, writeGlb } from '../../shared/export/gltf.ts';
import { formatById, type FormatId } from '../../shared/formats/registry.ts';
import { importGltf } from '../../shared/import/index.ts';
import { buildGridGlb } from './gltf-grid.ts';
import type { Row } from './report.ts';
import { median } from './timing.ts';

export const IMPORT_RATIO_TARGET = 0.5;
export const importMemoryTarget = (n: number): number => 3 * n + 64 * 1024 * 1024;

const TARGETS: { format: FormatId; version?: string }[] = [
  { format: 'lodka-lod' }, { format: 'p3d-mlod' }, { format: 'grimrock-model' }, { format: 'unigine-mesh', version: 'ms14' }, { format: 'unigine-mesh', version: 'ms11' },
];

const probeScript = fileURLToPath(new URL('../import-probe.ts', import.meta.url));

async function seconds(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn(); // warm-up
  const s: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    s.push((performance.now() - t0) / 1000);
  }
  return median(s);
}

export async function benchImport(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const tris = quick ? 100_000 : 1_000_000;
  const label = quick ? 'generated 100k tris GLB (quick: 1/10 size)' : 'generated 1M tris GLB';
  log(`import: building the ${label}`);
  const glb = await buildGridGlb(tris);
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-import-'));
  const file = join(dir, 'grid.glb');
  writeFileSync(file, glb);
  const rows: Row[] = [];
  const runs = quick ? 1 : 3;
  try {
    for (const t of TARGETS) {
      const subject = t.version ? `${t.format} ${t.version}` : t.format;
      log(`import: ${subject}`);
      const opts = t.version ? { version: t.version } : {};
      let out: Uint8Array = new Uint8Array(0);
      const tImport = await seconds(async () => (out = (await importGltf({ kind: 'glb', bytes: glb }, t.format, opts)).bytes), runs);
      const codec = formatById(t.format);
      const tExport = await seconds(async () => writeGlb(sceneToGltf(codec.toScene(codec.decode(out))).document), runs);
      const ratio = tExport / tImport;
      rows.push({
        section: 'codec', subject, input: label, bytes: glb.length, metric: 'import vs export', value: ratio, unit: 'x',
        target: `>= ${IMPORT_RATIO_TARGET}x export`, verdict: ratio >= IMPORT_RATIO_TARGET ? 'PASS' : 'MISS',
        note: `import ${(glb.length / 1e6 / tImport).toFixed(0)} MB/s of GLB (${tImport.toFixed(2)} s), export ${tExport.toFixed(2)} s`,
      });
      const limit = importMemoryTarget(glb.length);
      const target = `<= 3N+64MB = ${(limit / 1e6).toFixed(0)} MB`;
      try {
        const p = JSON.parse(execFileSync(process.execPath, ['--expose-gc', probeScript, t.format, file, ...(t.version ? [t.version] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop()!) as { peakDelta: number; hwmReset: boolean; outBytes: number; error?: string };
        const bad = p.error ? `import failed: ${p.error}` : '';
        const out = `output file ${(p.outBytes / 1e6).toFixed(1)} MB (${(p.outBytes / glb.length).toFixed(1)}x the GLB)`;
        rows.push({
          section: 'memory', subject, input: label, bytes: glb.length, metric: 'import peak', value: p.peakDelta, unit: 'bytes', target,
          verdict: bad ? 'MISS' : p.peakDelta <= limit ? 'PASS' : 'MISS',
          note: [bad, out, p.hwmReset ? '' : 'high-water mark could not be reset: upper bound including start-up'].filter(Boolean).join('; '),
        });
      } catch (e) {
        rows.push({ section: 'memory', subject, input: label, bytes: glb.length, metric: 'import peak', value: null, unit: 'bytes', target, verdict: 'MISS', note: `not measured: probe failed (${(e as Error).message.split('\n')[0]})` });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
