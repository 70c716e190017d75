/** The summary colours a PAA carries in its AVGC and MAXC tags. */
import { linearToSrgb, SRGB_TO_LINEAR, type RgbaImage } from './image.ts';

export interface Rgba8 {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * AVGC as the game's tools compute it: alpha is the plain mean of the alpha channel; the colour is
 * the mean in linear light, each texel weighted by its alpha (a fully transparent texel adds
 * nothing), converted back to sRGB. A picture with no opaque texel at all falls back to the plain
 * linear mean.
 */
export function averageColour(img: RgbaImage): Rgba8 {
  const d = img.data;
  let r = 0, g = 0, b = 0, w = 0, a = 0;
  let pr = 0, pg = 0, pb = 0;
  const n = img.width * img.height;
  for (let i = 0; i < d.length; i += 4) {
    const al = d[i + 3]!;
    const lr = SRGB_TO_LINEAR[d[i]!]!, lg = SRGB_TO_LINEAR[d[i + 1]!]!, lb = SRGB_TO_LINEAR[d[i + 2]!]!;
    r += lr * al; g += lg * al; b += lb * al;
    pr += lr; pg += lg; pb += lb;
    w += al;
    a += al;
  }
  if (w === 0) return { r: linearToSrgb(pr / n), g: linearToSrgb(pg / n), b: linearToSrgb(pb / n), a: 0 };
  return { r: linearToSrgb(r / w), g: linearToSrgb(g / w), b: linearToSrgb(b / w), a: Math.round(a / n) };
}

/** MAXC: the largest value of each channel. */
export function maxColour(img: RgbaImage): Rgba8 {
  const d = img.data;
  let r = 0, g = 0, b = 0, a = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i]! > r) r = d[i]!;
    if (d[i + 1]! > g) g = d[i + 1]!;
    if (d[i + 2]! > b) b = d[i + 2]!;
    if (d[i + 3]! > a) a = d[i + 3]!;
  }
  return { r, g, b, a };
}
