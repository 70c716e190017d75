/**
 * The LZO measuring stick: Debian's liblzo2 (the reference LZO1X implementation in C), timed on
 * the same data in the same run as our decoder, so "our LZO speed as a fraction of C" does not
 * depend on the machine. A tiny C harness is compiled at bench time into a temporary folder; when
 * `cc` or liblzo2-dev is missing the stick is reported as unavailable, never faked.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const C_SOURCE = String.raw`
#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
/* The many mode times CPU time (the bench compares it with our decode's CPU time). */
static double cpunow(void) {
  struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static double (*clock_fn)(void) = now;
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y;
}
static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb"); if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END); *n = (size_t)ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*n ? *n : 1); if (fread(b, 1, *n, f) != *n) exit(2); fclose(f); return b;
}
/* Repeats fn until a run lasts minSec, takes the median seconds per call over runs. */
#define TIME(result, runs, minSec, body) do { \
  double s[64]; int r; body; \
  for (r = 0; r < (runs); r++) { int reps = 0; double t0 = clock_fn(), t1; \
    do { body; reps++; t1 = clock_fn(); } while (t1 - t0 < (minSec)); s[r] = (t1 - t0) / reps; } \
  qsort(s, (runs), sizeof(double), cmp); result = s[(runs) / 2]; } while (0)

/* stick compress RAW OUT RUNS MIN: lzo1x_1 compress RAW into OUT, then time compress and
   decompress_safe; stick decompress COMP SIZE RUNS MIN: time decompress_safe of a given stream. */
int main(int argc, char **argv) {
  if (argc < 5 || lzo_init() != LZO_E_OK) return 2;
  int runs = atoi(argv[argc - 2]); double minSec = atof(argv[argc - 1]);
  if (runs < 1) runs = 1; if (runs > 63) runs = 63;
  if (strcmp(argv[1], "compress") == 0 && argc == 6) {
    size_t n; unsigned char *raw = slurp(argv[2], &n);
    unsigned char *comp = malloc(n + n / 16 + 64 + 3);
    unsigned char *wrk = malloc(LZO1X_1_MEM_COMPRESS);
    unsigned char *back = malloc(n ? n : 1);
    lzo_uint clen = 0, dlen = 0; double tc, td;
    TIME(tc, runs, minSec, lzo1x_1_compress(raw, n, comp, &clen, wrk));
    TIME(td, runs, minSec, { dlen = n; if (lzo1x_decompress_safe(comp, clen, back, &dlen, NULL) != LZO_E_OK) return 3; });
    if (dlen != n || memcmp(raw, back, n) != 0) return 4;
    FILE *f = fopen(argv[3], "wb"); fwrite(comp, 1, clen, f); fclose(f);
    printf("{\"compressedBytes\":%lu,\"compressSeconds\":%.9f,\"decompressSeconds\":%.9f}\n", (unsigned long)clen, tc, td);
    return 0;
  }
  if (strcmp(argv[1], "decompress") == 0 && argc == 6) {
    size_t clen; unsigned char *comp = slurp(argv[2], &clen);
    size_t n = (size_t)strtoull(argv[3], NULL, 10);
    unsigned char *back = malloc(n ? n : 1); lzo_uint dlen = 0; double td;
    TIME(td, runs, minSec, { dlen = n; if (lzo1x_decompress_safe(comp, clen, back, &dlen, NULL) != LZO_E_OK) return 3; });
    if (dlen != n) return 4;
    printf("{\"decompressSeconds\":%.9f}\n", td);
    return 0;
  }
  if (strcmp(argv[1], "many") == 0 && argc == 5) {
    /* FILE holds streams as [u32 compressed length][u32 expanded size][bytes], little-endian:
       times one pass of decompress_safe over all of them. */
    size_t n; unsigned char *all = slurp(argv[2], &n);
    size_t maxSize = 0, at = 0; int count = 0;
    while (at + 8 <= n) { unsigned c = all[at] | all[at+1] << 8 | all[at+2] << 16 | (unsigned)all[at+3] << 24;
      unsigned z = all[at+4] | all[at+5] << 8 | all[at+6] << 16 | (unsigned)all[at+7] << 24;
      if (z > maxSize) maxSize = z; at += 8 + c; count++; }
    unsigned char *back = malloc(maxSize ? maxSize : 1); double td; clock_fn = cpunow;
    TIME(td, runs, minSec, { size_t p = 0; while (p + 8 <= n) {
      unsigned c = all[p] | all[p+1] << 8 | all[p+2] << 16 | (unsigned)all[p+3] << 24;
      unsigned z = all[p+4] | all[p+5] << 8 | all[p+6] << 16 | (unsigned)all[p+7] << 24;
      lzo_uint dlen = z; if (lzo1x_decompress_safe(all + p + 8, c, back, &dlen, NULL) != LZO_E_OK || dlen != z) return 3;
      p += 8 + c; } });
    printf("{\"decompressSeconds\":%.9f,\"streams\":%d}\n", td, count);
    return 0;
  }
  return 2;
}
`;

/** The compiled stick, or why there is none. */
export type LzoStick = { ok: true; binary: string; dir: string } | { ok: false; reason: string };

/** Compiles the harness (once per machine user; the binary is cached in the temp folder). */
export function buildLzoStick(): LzoStick {
  const dir = join(tmpdir(), 'lodsmith-bench-lzo-stick');
  const binary = join(dir, 'lzo-stick');
  const source = join(dir, 'lzo-stick.c');
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(source, C_SOURCE);
    if (!hasCommand('cc')) return { ok: false, reason: 'no C compiler (cc) on this machine' };
    if (!existsSync('/usr/include/lzo/lzo1x.h')) {
      return { ok: false, reason: 'liblzo2-dev is not installed (apt-get install liblzo2-dev)' };
    }
    execFileSync('cc', ['-O2', '-o', binary, source, '-llzo2'], { stdio: 'pipe' });
    return { ok: true, binary, dir };
  } catch (e) {
    return { ok: false, reason: `building the liblzo2 harness failed: ${firstLine(e)}` };
  }
}

function hasCommand(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function firstLine(e: unknown): string {
  const err = e as { stderr?: Buffer; message?: string };
  const text = err.stderr?.toString() || err.message || String(e);
  return text.split('\n').find((l) => l.trim()) ?? text;
}

/** What liblzo2 measured for one input. */
export interface StickCompressResult {
  compressedBytes: number;
  compressSeconds: number;
  decompressSeconds: number;
}

/** lzo1x_1 compresses `rawFile` into `outFile` and times compression and decompress_safe. */
export function stickCompress(stick: { binary: string }, rawFile: string, outFile: string, runs: number, minSec: number): StickCompressResult {
  const out = execFileSync(stick.binary, ['compress', rawFile, outFile, String(runs), String(minSec)], { encoding: 'utf8' });
  return JSON.parse(out) as StickCompressResult;
}

/** Times lzo1x_decompress_safe of an existing stream (e.g. one our compressor produced). */
export function stickDecompress(stick: { binary: string }, compFile: string, size: number, runs: number, minSec: number): number {
  const out = execFileSync(stick.binary, ['decompress', compFile, String(size), String(runs), String(minSec)], { encoding: 'utf8' });
  return (JSON.parse(out) as { decompressSeconds: number }).decompressSeconds;
}

/** Times one pass of lzo1x_decompress_safe over many streams (stickManyFile's layout); CPU seconds a pass. */
export function stickDecompressMany(stick: { binary: string }, file: string, runs: number, minSec: number): number {
  const out = execFileSync(stick.binary, ['many', file, String(runs), String(minSec)], { encoding: 'utf8' });
  return (JSON.parse(out) as { decompressSeconds: number }).decompressSeconds;
}

/** Streams in the layout `many` reads: [u32 compressed length][u32 expanded size][bytes] each. */
export function stickManyFile(streams: readonly { stream: Uint8Array; size: number }[]): Uint8Array {
  const total = streams.reduce((a, s) => a + 8 + s.stream.length, 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  let at = 0;
  for (const s of streams) {
    dv.setUint32(at, s.stream.length, true);
    dv.setUint32(at + 4, s.size, true);
    out.set(s.stream, at + 8);
    at += 8 + s.stream.length;
  }
  return out;
}
