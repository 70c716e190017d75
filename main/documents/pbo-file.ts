/**
 * A PBO on disk: its header read from the front of the file (more only while the header needs
 * it), and each entry's stored bytes read on their own, so listing or checking a large archive
 * never holds the whole file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { entryBytes, parsePbo, PboNeedMore, type PboArchive, type PboEntry } from '../../shared/formats/pbo/pbo.ts';
import { MemoryBudget, withBudget } from '../../shared/binary/budget.ts';

/** First read of a header; most addons' headers fit. */
const FIRST_READ = 64 * 1024;
/** A header larger than this is refused (the largest real ones are a few MB). */
const MAX_HEADER = 64 * 1024 * 1024;

function readAt(fd: number, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

export class PboFile {
  readonly archive: PboArchive;
  private readonly fd: number;
  private constructor(fd: number, archive: PboArchive) {
    this.fd = fd;
    this.archive = archive;
  }

  static open(path: string): PboFile {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      let want = Math.min(size, FIRST_READ);
      for (;;) {
        const head = readAt(fd, 0, want);
        try {
          return new PboFile(fd, parsePbo(head, size));
        } catch (e) {
          if (!(e instanceof PboNeedMore) || want >= size) throw e;
          if (e.atLeast > MAX_HEADER) throw new Error(`the archive's header is larger than ${MAX_HEADER} bytes`, { cause: e });
          want = Math.min(size, Math.max(e.atLeast, want * 2));
        }
      }
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** The entry's stored bytes, as in the archive. */
  stored(entry: PboEntry): Uint8Array {
    return readAt(this.fd, entry.dataOffset, entry.dataSize);
  }

  /** The entry's decoded bytes, decompressed under the decoding budget (`maxMemory`, else 64 MiB + 16 x its stored size). */
  read(entry: PboEntry, maxMemory?: number): Uint8Array {
    const stored = entry.unreadable ? new Uint8Array(0) : this.stored(entry);
    const budget = maxMemory !== undefined ? new MemoryBudget(maxMemory) : MemoryBudget.forInput(entry.dataSize);
    return withBudget(budget, () => entryBytes(entry, stored));
  }

  close(): void {
    closeSync(this.fd);
  }

  /** `fn(this)`, then closes the file. */
  closeAfter<T>(fn: (f: PboFile) => T): T {
    try {
      return fn(this);
    } finally {
      this.close();
    }
  }
}
