/**
 * A day's work in one process (issue 26, goal 7): `cycles` rounds of open, edit, save and close
 * through the document service (what the editor and the browser host run), over copies of corpus
 * files of every model format in a temp folder, taken in turn. Run as
 * `node --expose-gc bench/soak-probe.ts <dir> <cycles> <file>...`; prints one JSON line
 * ({@link SoakResult}).
 *
 * The edit of each file is found once before the run: the first number field of its outline
 * (breadth first) that the service accepts set to the value it already has, which marks the
 * document changed, so every save encodes the edited node and writes the file (atomically, with
 * its `.bak`) and the reopen decodes what was written. Resident memory and open file handles
 * (Linux: /proc/self/fd) are read after a full garbage collection, after the first `warm` cycles
 * and after the last: a leak grows the difference, a warm-up does not.
 */
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DocumentService } from '../main/documents/document-service.ts';
import { editsOf, openFds, settle, type SoakResult } from './lib/soak-measure.ts';

async function main(): Promise<void> {
  const [dir, cyclesArg, ...sources] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!dir || !(cycles > 0) || sources.length === 0) throw new Error('usage: soak-probe.ts <dir> <cycles> <file>...');
  const warm = Math.min(20, cycles);
  const svc = new DocumentService({ configDir: join(dir, 'config') });
  const files = sources.map((s, i) => {
    const to = join(dir, `${i}-${basename(s)}`);
    copyFileSync(s, to);
    return to;
  });
  const { edits, described } = await editsOf(svc, files);
  const t0 = performance.now();
  let rssAfterWarm = 0;
  let fdsAfterWarm: number | null = null;
  for (let c = 0; c < cycles; c++) {
    const f = files[c % files.length]!;
    const { id } = await svc.open(f);
    const edit = edits.get(f);
    if (edit) await svc.edit(id, { op: 'set', path: edit.path, value: edit.value });
    await svc.save(id);
    await svc.close(id);
    if (c + 1 === warm) {
      settle();
      rssAfterWarm = process.memoryUsage().rss;
      fdsAfterWarm = openFds();
    }
  }
  settle();
  const result: SoakResult = {
    cycles, warm, files: described, noEdit: described.filter((d) => d.edit === '-').map((d) => d.file),
    rssAfterWarm, rssAfterRun: process.memoryUsage().rss, fdsAfterWarm, fdsAfterRun: openFds(), ms: performance.now() - t0,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
