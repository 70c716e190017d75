/** Hex-view rows: offset, 16 bytes, ASCII, each byte knowing whether the highlighted span covers it. */
export interface HexCell {
  offset: number;
  hex: string;
  ch: string;
  inNode: boolean;
  highlight: boolean;
}
export interface HexRow {
  offset: number;
  cells: HexCell[];
}

export const HEX_WIDTH = 16;

/**
 * `bytes` hold the file from `start`; rows are aligned to 16 so offsets read like any hex editor;
 * `node` is the selected node's span and `highlight` the field under the cursor.
 */
export function hexRows(
  bytes: Uint8Array,
  start: number,
  node?: readonly [number, number],
  highlight?: readonly [number, number],
): HexRow[] {
  const rows: HexRow[] = [];
  const first = start - (start % HEX_WIDTH);
  const end = start + bytes.length;
  for (let row = first; row < end; row += HEX_WIDTH) {
    const cells: HexCell[] = [];
    for (let off = row; off < row + HEX_WIDTH; off++) {
      const has = off >= start && off < end;
      const b = has ? bytes[off - start]! : -1;
      cells.push({
        offset: off,
        hex: has ? b.toString(16).padStart(2, '0') : '  ',
        ch: !has ? ' ' : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·',
        inNode: has && (!node || (off >= node[0] && off < node[1])),
        highlight: has && !!highlight && off >= highlight[0] && off < highlight[1],
      });
    }
    rows.push({ offset: row, cells });
  }
  return rows;
}

export const hexOffset = (n: number): string => n.toString(16).padStart(8, '0');
