/**
 * Builds PBO archives for tests, fuzz seeds and the bench (LodSmith itself never packs: that is
 * HEMTT's job). Entries stored or LZSS-compressed (`Cprs`) with the project's own compressor, a
 * product entry with properties, and Arma's trailing 0 + SHA-1; options to break the rules the
 * way obfuscators and damaged files do.
 */
import { createHash } from 'node:crypto';
import { lzssCompress } from '../../shared/binary/lzss.ts';
import { METHOD_CPRS, METHOD_VERS } from '../../shared/formats/pbo/pbo.ts';

export interface PboBuildEntry {
  name: string;
  data: Uint8Array;
  compress?: boolean;
  /** Unix seconds. */
  timestamp?: number;
  /** Packing method word written instead of the usual one. */
  method?: number;
  /** Original size written instead of the real one. */
  originalSize?: number;
}

export interface PboBuildOptions {
  /** Header properties; a product entry is written when given (even empty). */
  properties?: [string, string][];
  /** Append Arma's 0 byte + SHA-1 (default true). */
  sha1?: boolean;
}

const enc = new TextEncoder();

export function buildPbo(entries: readonly PboBuildEntry[], opts: PboBuildOptions = {}): Uint8Array {
  const head: number[] = [];
  const u32 = (v: number): void => { head.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24); };
  const str = (s: string): void => { for (let i = 0; i < s.length; i++) head.push(s.charCodeAt(i) & 255); head.push(0); };
  if (opts.properties) {
    str('');
    u32(METHOD_VERS); u32(0); u32(0); u32(0); u32(0);
    for (const [k, v] of opts.properties) { str(k); str(v); }
    str('');
  }
  const bodies: Uint8Array[] = [];
  for (const e of entries) {
    const body = e.compress ? lzssCompress(e.data) : e.data;
    bodies.push(body);
    str(e.name);
    u32(e.method ?? (e.compress ? METHOD_CPRS : 0));
    u32(e.originalSize ?? (e.compress ? e.data.length : 0));
    u32(0);
    u32(e.timestamp ?? 1_700_000_000);
    u32(body.length);
  }
  str('');
  for (let i = 0; i < 5; i++) u32(0);
  const parts = [new Uint8Array(head), ...bodies];
  const size = parts.reduce((a, p) => a + p.length, 0);
  const withSha = opts.sha1 ?? true;
  const out = new Uint8Array(size + (withSha ? 21 : 0));
  let p = 0;
  for (const part of parts) { out.set(part, p); p += part.length; }
  if (withSha) out.set(createHash('sha1').update(out.subarray(0, size)).digest(), size + 1);
  return out;
}

export const text = (s: string): Uint8Array => enc.encode(s);
