/**
 * `lodsmith pbo list|extract ARCHIVE [PATTERN] [-o DIR]`: what a PBO holds (header properties,
 * entries with sizes, packing and times) and its entries written out. Read only; entries an
 * obfuscated or encrypted archive makes unreadable are listed with the reason and never written.
 */
import { mkdirSync, existsSync, lstatSync } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { isDecodeError } from '../../../shared/errors.ts';
import { pboPattern, printableName, type PboEntry } from '../../../shared/formats/pbo/pbo.ts';
import { CliFailure, describeError, EXIT_OK, EXIT_PROBLEMS, FileError } from '../fail.ts';
import { writeAtomically, writeJson, writeLines, type CliIO } from '../io.ts';
import { PboFile } from '../../documents/pbo-file.ts';
import { humanBytes, plural, table } from '../text.ts';

export interface PboOptions {
  output?: string;
  json?: boolean;
  force?: boolean;
  quiet?: boolean;
  maxMemory?: number;
}

const PACKING: Record<PboEntry['packing'], string> = { stored: 'stored', lzss: 'LZSS', encrypted: 'encrypted', unknown: 'unknown' };

function isoTime(t: number): string {
  return t ? new Date(t * 1000).toISOString().replace('.000Z', 'Z') : '-';
}

export async function runPbo(action: string, archivePath: string, pattern: string | undefined, opts: PboOptions, io: CliIO): Promise<number> {
  if (action !== 'list' && action !== 'extract') throw new CliFailure(`unknown pbo action "${action}" (list or extract)`);
  const abs = resolve(io.cwd, archivePath);
  let pbo: PboFile;
  try {
    pbo = PboFile.open(abs);
  } catch (e) {
    throw new FileError(archivePath, e);
  }
  try {
    const a = pbo.archive;
    const match = pattern ? pboPattern(pattern) : () => true;
    const entries = a.entries.filter((e) => match(e.name));
    if (action === 'list') {
      if (opts.json) {
        await writeJson(io.stdout, {
          archive: archivePath, prefix: a.prefix, properties: Object.fromEntries(a.properties), sha1: a.sha1 ?? null, notes: a.notes,
          entries: entries.map((e) => ({ name: e.name, size: e.size, stored: e.dataSize, packing: e.packing, timestamp: e.timestamp, offset: e.dataOffset, ...(e.unreadable ? { unreadable: e.unreadable } : {}) })),
        });
      } else {
        const lines: string[] = [];
        for (const [k, v] of a.properties) lines.push(`${k} = ${v}`);
        if (a.properties.length) lines.push('');
        lines.push(...table(
          [{ title: 'name', max: 70 }, { title: 'size', align: 'right' }, { title: 'stored', align: 'right' }, { title: 'packing' }, { title: 'time' }],
          entries.map((e) => [printableName(e.name), String(e.size), String(e.dataSize), e.unreadable ? `${PACKING[e.packing]} (unreadable)` : PACKING[e.packing], isoTime(e.timestamp)]),
        ));
        const bad = entries.filter((e) => e.unreadable);
        if (bad.length) {
          lines.push('', 'Cannot be read:');
          for (const e of bad) lines.push(`  ${printableName(e.name)}: ${e.unreadable}`);
        }
        for (const n of a.notes) lines.push(`note: ${n}`);
        lines.push(`${plural(entries.length, 'entry', 'entries')}${pattern ? ` matching ${pattern}` : ''}, ${humanBytes(entries.reduce((s, e) => s + e.size, 0))}${a.sha1 ? `; SHA-1 ${a.sha1}` : ''}`);
        await writeLines(io.stdout, lines);
      }
      return entries.some((e) => e.unreadable) ? EXIT_PROBLEMS : EXIT_OK;
    }
    const outDir = resolve(io.cwd, opts.output ?? basename(archivePath, extname(archivePath)));
    let written = 0;
    let bytes = 0;
    const failed: string[] = [];
    for (const e of entries) {
      const shown = printableName(e.name);
      if (e.unreadable) {
        failed.push(`${shown}: not extracted: ${e.unreadable}`);
        continue;
      }
      const target = join(outDir, ...e.name.split(/[\\/]/));
      // nameProblem() already refused names that leave the folder; this is the last word.
      if (!target.startsWith(outDir + sep)) {
        failed.push(`${shown}: not extracted: its name leaves the output folder`);
        continue;
      }
      if (existsSync(target) && !opts.force) {
        failed.push(`${shown}: not extracted: ${target} exists (--force replaces it)`);
        continue;
      }
      if (existsSync(target) && !lstatSync(target).isFile()) {
        failed.push(`${shown}: not extracted: ${target} exists and is not a regular file`);
        continue;
      }
      let data: Uint8Array;
      try {
        data = pbo.read(e, opts.maxMemory);
      } catch (err) {
        failed.push(isDecodeError(err) ? `${shown}: ${describeError(err)}` : `${shown}: ${describeError(err)}`);
        continue;
      }
      mkdirSync(dirname(target), { recursive: true });
      await writeAtomically(target, data);
      written++;
      bytes += data.length;
    }
    const lines = failed.map((f) => `${archivePath}::${f}`);
    if (!opts.quiet || failed.length) lines.push(`extracted ${plural(written, 'entry', 'entries')} (${humanBytes(bytes)}) to ${outDir}${failed.length ? `; ${failed.length} not extracted` : ''}`);
    await writeLines(failed.length ? io.stderr : io.stdout, lines);
    return failed.length ? EXIT_PROBLEMS : EXIT_OK;
  } finally {
    pbo.close();
  }
}
