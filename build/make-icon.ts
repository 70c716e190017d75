/**
 * Draws the app icon (an isometric cube, three shaded faces, on a rounded slate square) as
 * build/icons/512x512.png and 256x256.png. The PNGs are committed; rerun after changing the
 * drawing: `node build/make-icon.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
type Pt = [number, number];

function png(size: number, px: Uint8Array): Uint8Array {
  const raw = new Uint8Array(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) raw.set(px.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  const chunk = (type: string, data: Uint8Array) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    td.copy(out, 4);
    out.writeUInt32BE(crc32(td), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function inPoly(p: Pt, poly: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Colour at a point of the unit square (0..1), 4x4 supersampled by the caller. */
function colour(x: number, y: number): Rgba {
  const m = 0.03;
  const r = 0.16;
  const dx = Math.max(m + r - x, x - (1 - m - r), 0);
  const dy = Math.max(m + r - y, y - (1 - m - r), 0);
  if (dx * dx + dy * dy > r * r || x < m || y < m || x > 1 - m || y > 1 - m) return [0, 0, 0, 0];
  const c: Pt = [0.5, 0.53];
  const s = 0.3;
  const k = Math.sqrt(3) / 2;
  const top: Pt = [c[0], c[1] - s];
  const ul: Pt = [c[0] - k * s, c[1] - s / 2];
  const ur: Pt = [c[0] + k * s, c[1] - s / 2];
  const ll: Pt = [c[0] - k * s, c[1] + s / 2];
  const lr: Pt = [c[0] + k * s, c[1] + s / 2];
  const bottom: Pt = [c[0], c[1] + s];
  const p: Pt = [x, y];
  if (inPoly(p, [top, ur, c, ul])) return [250, 170, 90, 255];
  if (inPoly(p, [ul, c, bottom, ll])) return [232, 118, 40, 255];
  if (inPoly(p, [c, ur, lr, bottom])) return [176, 78, 22, 255];
  const g = 0.12 * y;
  return [Math.round(38 - 30 * g), Math.round(44 - 30 * g), Math.round(56 - 30 * g), 255];
}

function draw(size: number): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colour((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size);
          for (let i = 0; i < 3; i++) acc[i]! += c[i]! * c[3];
          acc[3]! += c[3];
        }
      }
      const a = acc[3]!;
      px.set(a ? [acc[0]! / a, acc[1]! / a, acc[2]! / a, a / (n * n)].map(Math.round) : [0, 0, 0, 0], (y * size + x) * 4);
    }
  }
  return png(size, px);
}

const dir = join(dirname(fileURLToPath(import.meta.url)), 'icons');
mkdirSync(dir, { recursive: true });
for (const size of [512, 256]) writeFileSync(join(dir, `${size}x${size}.png`), draw(size));
console.log(`wrote ${dir}`);
