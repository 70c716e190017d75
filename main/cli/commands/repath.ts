/**
 * `lodsmith repath --from PREFIX --to PREFIX [--dry-run] PATH...`: rewrites the texture, material
 * and proxy paths that start with PREFIX in P3D models (MLOD and ODOL), LODka models and `.rvmat`
 * materials under the given files and folders (shared/model/repath.ts), reports every change,
 * and writes each changed file atomically with the previous version kept as NAME.bak. Bytes
 * outside the changed paths stay as they were (the edits go through the codecs' edit commands).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { applyCommand } from '../../../shared/model/commands.ts';
import { planRepath, repathCommands, repathText } from '../../../shared/model/repath.ts';
import { atomicWriteFile } from '../../documents/atomic-save.ts';
import { CliFailure, describeError, EXIT_OK, EXIT_PROBLEMS } from '../fail.ts';
import { writeJson, writeLines, type CliIO } from '../io.ts';
import { codecFor, MAX_INPUT_BYTES } from '../load.ts';
import { plural } from '../text.ts';

export interface RepathOptions {
  from?: string;
  to?: string;
  dryRun?: boolean;
  json?: boolean;
  quiet?: boolean;
  maxMemory?: number;
}

/** Files repath reads: models whose paths the game resolves, and their materials. */
const EXTENSIONS = new Set(['.p3d', '.lod', '.rvmat']);

interface FileReport {
  file: string;
  changes: { where: string; before: string; after: string }[];
  written?: boolean;
  backup?: string | null;
  error?: string;
}

async function collect(paths: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (abs: string): Promise<void> => {
    const st = await stat(abs);
    if (st.isDirectory()) {
      for (const e of await readdir(abs, { withFileTypes: true })) {
        if (e.name.startsWith('.')) continue;
        const p = join(abs, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.isFile() && EXTENSIONS.has(ext(e.name))) out.push(p);
      }
    } else if (st.isFile()) out.push(abs);
  };
  for (const p of paths) await walk(resolve(cwd, p));
  return [...new Set(out)].sort();
}

const ext = (name: string): string => name.toLowerCase().match(/\.[^./\\]+$/)?.[0] ?? '';

/** The rewritten bytes and the changes, or undefined when nothing in the file starts with the prefix. */
async function rewrite(abs: string, bytes: Uint8Array, from: string, to: string, maxMemory?: number): Promise<{ bytes: Uint8Array; changes: FileReport['changes']; verify: (b: Uint8Array) => void } | undefined> {
  if (ext(abs) === '.rvmat') {
    // Binarized (raP) materials are a config tree, not text: out of reach here.
    if (bytes[0] === 0 && bytes[1] === 0x72 && bytes[2] === 0x61 && bytes[3] === 0x50) throw new CliFailure('is a binarized rvmat (raP); only text materials are re-pathed');
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    const r = repathText(text, from, to);
    if (r.changes.length === 0) return undefined;
    return {
      bytes: new Uint8Array(Buffer.from(r.text, 'latin1')),
      changes: r.changes.map((c) => ({ where: `line ${c.line}`, before: c.before, after: c.after })),
      verify: () => undefined,
    };
  }
  const codec = await codecFor(bytes, basename(abs));
  const decode = (b: Uint8Array): object => codec.decode(b, { fileName: basename(abs), ...(maxMemory !== undefined ? { maxMemory } : {}) }) as object;
  const doc = decode(bytes);
  const plan = planRepath(doc, from, to);
  if (plan.length === 0) return undefined;
  for (const cmd of repathCommands(plan)) {
    const refused = codec.checkEdit?.(doc, cmd);
    if (refused) throw new CliFailure(`cannot change ${plan.find((c) => c.path === (cmd as { path: unknown }).path)?.where ?? 'a path'}: ${refused}`);
    applyCommand(doc, cmd);
  }
  return { bytes: codec.encode(doc), changes: plan.map((c) => ({ where: c.where, before: c.before, after: c.after })), verify: (b) => void decode(b) };
}

export async function runRepath(paths: readonly string[], opts: RepathOptions, io: CliIO): Promise<number> {
  const from = opts.from ?? '';
  const to = opts.to ?? '';
  if (!from.replace(/[\\/]/g, '')) throw new CliFailure('--from needs a folder prefix (e.g. --from mymod\\data)');
  const files = await collect(paths, io.cwd);
  const reports: FileReport[] = [];
  for (const abs of files) {
    const file = relative(io.cwd, abs) || abs;
    try {
      const st = await stat(abs);
      if (st.size > MAX_INPUT_BYTES) throw new CliFailure('is larger than any file LodSmith reads');
      const buf = await readFile(abs);
      const r = await rewrite(abs, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), from, to, opts.maxMemory);
      if (!r) continue;
      const report: FileReport = { file, changes: r.changes };
      if (!opts.dryRun) {
        const w = await atomicWriteFile(abs, r.bytes, { backup: true, verify: r.verify });
        report.written = true;
        report.backup = w.backup;
      }
      reports.push(report);
    } catch (e) {
      reports.push({ file, changes: [], error: describeError(e) });
    }
  }
  const failed = reports.filter((r) => r.error);
  const changed = reports.filter((r) => !r.error);
  const n = changed.reduce((a, r) => a + r.changes.length, 0);
  if (opts.json) {
    await writeJson(io.stdout, { from, to, dryRun: !!opts.dryRun, files: reports, totals: { files: files.length, changed: changed.length, changes: n, failed: failed.length } });
  } else {
    const lines: string[] = [];
    if (!opts.quiet) {
      for (const r of changed) {
        lines.push(`${r.file}:`);
        for (const c of r.changes) lines.push(`  ${c.where}: ${c.before} -> ${c.after}`);
      }
    }
    for (const r of failed) lines.push(`${r.file}: ${r.error}`);
    lines.push(`${opts.dryRun ? 'would change' : 'changed'} ${plural(n, 'path')} in ${plural(changed.length, 'file')} of ${files.length} read${failed.length ? `; ${failed.length} failed` : ''}${!opts.dryRun && changed.length ? ' (previous versions kept as NAME.bak)' : ''}`);
    await writeLines(io.stdout, lines);
  }
  return failed.length ? EXIT_PROBLEMS : EXIT_OK;
}
