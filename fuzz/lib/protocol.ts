/** Messages between the fuzz driver and its workers. */

/** How one input ended. Only `ok` and `decode-error` are acceptable. */
export type Outcome =
  | 'ok'
  /** A DecodeError naming a valid offset: the decoder refused bad input properly. */
  | 'decode-error'
  /** Any other exception from decode. */
  | 'crash'
  /** Decode succeeded but encoding its own document threw. */
  | 'encode-crash'
  /**
   * Decode succeeded but a later stage threw: info, validate, the outline or an inspector row,
   * the scene (or it came back with the registry's "could not be drawn" warning), glTF export.
   */
  | 'stage-crash'
  /** The glTF written for a decoded input has errors in the Khronos validator. */
  | 'gltf-invalid'
  /** Decode succeeded but the document does not save back byte-identical. */
  | 'mismatch'
  /** A DecodeError whose offset is not a position in the input. */
  | 'bad-error'
  /** Allocated or retained far more than a small multiple of the input. */
  | 'blowup'
  /** Did not finish within the per-input time limit (the worker was terminated). */
  | 'hang'
  /** The worker ran out of JS heap (resourceLimits) or died. */
  | 'oom';

/** Outcomes that are failures and are saved as regression inputs. */
export const FAILURES: readonly Outcome[] = ['crash', 'encode-crash', 'stage-crash', 'gltf-invalid', 'bad-error', 'blowup', 'hang', 'oom'];

export interface FuzzRequest {
  id: number;
  format: string;
  bytes: Uint8Array;
  /** Also encode when decode succeeds. */
  encode: boolean;
  /**
   * Allocation limit of the whole pipeline: memFactor * input bytes + memSlackBytes. Decoding
   * alone is held to the decoding memory budget (64 MiB + 16 x the input).
   */
  memFactor: number;
  memSlackBytes: number;
  /**
   * Run every stage after decode (info, validate, outline and inspector rows, scene, glTF
   * export), not just encode. Default true.
   */
  pipeline?: boolean;
  /** Also check the exported glTF with the Khronos validator (slow: the driver samples inputs). */
  gltfCheck?: boolean;
  /** Multiplies the pool's time limit (a suspected hang is run again with a longer one). */
  timeScale?: number;
}

export interface FuzzResponse {
  id: number;
  outcome: Outcome;
  message?: string;
  stack?: string;
  /** Bytes of typed arrays and ArrayBuffers allocated during the input. */
  allocated: number;
  /** ArrayBuffer bytes still held when the input finished (the document included). */
  retained: number;
  ms: number;
  /** CPU time the worker thread spent on the input, in microseconds (0 when it did not report). */
  cpuUs?: number;
  /** Which stage the outcome comes from (`decode`, `info`, `scene`, ...). */
  stage?: string;
  /** True when the exported glTF went through the Khronos validator. */
  gltfChecked?: boolean;
}
