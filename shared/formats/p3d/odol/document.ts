/**
 * The ODOL document model as one type, apart from the codec: the views (info, validate, scene,
 * outline, edits) import it from here, so none of them imports codec.ts, which imports them all.
 */
import type { OdolV4xDocument } from './model.ts';
import type { OdolV7Document } from './v7.ts';

export type OdolDocument = OdolV4xDocument | OdolV7Document;

/** Lowest and highest Arma-family versions the decoder accepts. */
export const MIN_V4X = 28;
export const MAX_V4X = 75;

export function isV7(doc: OdolDocument): doc is OdolV7Document {
  return doc.version === 7;
}
