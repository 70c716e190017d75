/**
 * Width rules of the LODka mesh arrays (NOTES.md, "Index widths"). The widths are never stored:
 * they follow from element counts, so a writer re-derives them after an edit.
 */

/** Bytes per vertex / normal / texture-coordinate index for an indexed array of `elements` items. */
export function indexWidth(elements: number): 1 | 2 | 4 {
  return elements <= 256 ? 1 : elements <= 65536 ? 2 : 4;
}

/** Bytes per PntBnAssoc entry: 1 below 255 bones, else 2. */
export function assocWidth(bones: number): 1 | 2 {
  return bones < 255 ? 1 : 2;
}

/** Bytes per bone-weight record: 5 (byte BoneID) up to 127 bones, else 6 (word BoneID). */
export function weightRecordSize(bones: number): 5 | 6 {
  return bones <= 127 ? 5 : 6;
}

/** The "next record starts the next vertex" bit of a weight record's BoneID. */
export function weightNextBit(bones: number): number {
  return weightRecordSize(bones) === 5 ? 0x80 : 0x8000;
}
