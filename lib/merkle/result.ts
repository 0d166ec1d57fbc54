// Result type and argument checks shared by the Merkle proof verifiers (RFC 9162 §2.1.3.2,
// §2.1.4.2). Verifiers return data and never throw: every argument may be attacker-controlled.

/** The closed set of reasons a Merkle verification can fail. */
export type MerkleErrorCode =
  /** A tree size is not a non-negative safe integer, or the sizes are impossible (size1 = 0, size1 > size2). */
  | 'bad_size'
  /** The leaf index is not an integer in [0, treeSize). */
  | 'index_out_of_range'
  /** A leaf hash, root or proof element is not a 32-byte Uint8Array (or not bytes at all). */
  | 'bad_hash_size'
  /** The proof has more or fewer elements than the sizes require (or is not an array). */
  | 'wrong_proof_size'
  /** The recomputed root differs from the expected one. */
  | 'root_mismatch';

export const MERKLE_ERROR_CODES: readonly MerkleErrorCode[] = ['bad_size', 'index_out_of_range', 'bad_hash_size', 'wrong_proof_size', 'root_mismatch'];

export interface MerkleFailure {
  ok: false;
  code: MerkleErrorCode;
  /** Developer-facing prose; tests and UIs should key on `code`. */
  detail: string;
}

export type MerkleResult<T> = { ok: true; value: T } | MerkleFailure;

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail(code: MerkleErrorCode, detail: string): MerkleFailure {
  return { ok: false, code, detail };
}

/** A tree size or leaf index: a non-negative safe integer (rejects NaN, ±Infinity, fractions, > 2^53 - 1). */
export function isTreeSize(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** Renders an attacker-supplied argument for a detail message without ever throwing. */
export function describe(x: unknown): string {
  return typeof x === 'number' ? String(x) : typeof x;
}

// Bit operations on sizes use arithmetic, not JS bitwise operators, which truncate to 32 bits:
// public logs already exceed 2^32 entries. Both are exact for safe integers.

export function isOdd(n: number): boolean {
  return n % 2 === 1;
}

/** ⌊n / 2⌋, i.e. n >> 1 for any safe integer. */
export function half(n: number): number {
  return Math.floor(n / 2);
}
