/**
 * Label decluttering for the viewport, as DCC viewports do it: labels are placed nearest first,
 * and a label that would overlap one already placed is hidden; the placed label it collides with
 * counts it, so a pile of proxies on one spot reads `box_c #1 (+9)` instead of ten labels drawn
 * over each other. Hidden labels come back as soon as the view leaves them room.
 */
export interface LabelBox {
  /** Top left, in pixels. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Distance from the camera (any monotonic measure): nearer labels win. */
  depth: number;
}

export interface Placement {
  shown: boolean;
  /** For a shown label: how many hidden labels collided with it. */
  hidden: number;
}

export function declutter(boxes: readonly LabelBox[], gap = 2): Placement[] {
  const out: Placement[] = boxes.map(() => ({ shown: false, hidden: 0 }));
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.depth - boxes[b]!.depth || a - b);
  const placed: number[] = [];
  for (const i of order) {
    const b = boxes[i]!;
    const hit = placed.find((j) => {
      const p = boxes[j]!;
      return b.x < p.x + p.w + gap && p.x < b.x + b.w + gap && b.y < p.y + p.h + gap && p.y < b.y + b.h + gap;
    });
    if (hit === undefined) {
      out[i]!.shown = true;
      placed.push(i);
    } else out[hit]!.hidden++;
  }
  return out;
}
