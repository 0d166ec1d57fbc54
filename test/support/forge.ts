// Test-only: builds small signed Chio logs (receipts, checkpoints, proofs,
// packages) from a seed, so each problem code can be triggered on purpose.
// Signing uses @noble/ed25519 over our canonical bytes; the real-vector tests
// are what establish that those bytes are Chio's.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toHex } from '../../lib/bytes/hex';
import { sha256Hex } from '../../lib/crypto/sha256';
import { canonicalBytes } from '../../lib/json/canonicalize';
import { parseJson } from '../../lib/json/parse';
import type { JsonValue } from '../../lib/json/value';
import { inclusionProofFor, leafHash, rootFromLeafHashes } from '../../lib/merkle';

ed.hashes.sha512 = sha512;

export type Plain = Record<string, unknown>;

export function tree(value: unknown): JsonValue {
  const r = parseJson(JSON.stringify(value));
  if (!r.ok) throw new Error(r.issue.message);
  return r.value;
}

export function keyFromSeed(seedByte: number): { secret: Uint8Array; publicHex: string } {
  const secret = new Uint8Array(32).fill(seedByte);
  return { secret, publicHex: toHex(ed.getPublicKey(secret)) };
}

export function signHex(secret: Uint8Array, message: Uint8Array): string {
  return toHex(ed.sign(message, secret));
}

export interface ReceiptOptions {
  seq: number;
  key: { secret: Uint8Array; publicHex: string };
  parameters?: unknown;
  financial?: Plain;
  extra?: Plain;
  /** Sign with the legacy DEL/C1 escaping (old Rust). */
  legacy?: boolean;
}

/** A signed Gen A tool receipt (plain object, key order as Rust writes it). */
export function genAReceipt(o: ReceiptOptions): Plain {
  const parameters = o.parameters ?? { path: `/srv/file-${o.seq}.txt` };
  const body: Plain = {
    id: `rcpt-test-${String(o.seq).padStart(6, '0')}`,
    timestamp: 1767225600 + o.seq * 10,
    capability_id: 'cap-test-1',
    tool_server: 'srv-files',
    tool_name: 'file_read',
    action: { parameters, parameter_hash: sha256Hex(canonicalBytes(tree(parameters))) },
    decision: { verdict: 'allow' },
    content_hash: sha256Hex(new TextEncoder().encode('null')),
    policy_hash: 'policy-test-v1',
    ...(o.financial ? { metadata: { financial: o.financial } } : {}),
    kernel_key: o.key.publicHex,
    ...o.extra,
  };
  const signature = signHex(o.key.secret, canonicalBytes(tree(body), { legacyC1: o.legacy === true }));
  return { ...body, signature };
}

export function leafOf(receipt: Plain): Uint8Array {
  return leafHash(canonicalBytes(tree(receipt)));
}

export interface CheckpointOptions {
  seq: number;
  start: number;
  leaves: Uint8Array[];
  key: { secret: Uint8Array; publicHex: string };
  previous?: Plain;
  treeSize?: number;
}

/** The body of a checkpoint over `leaves` (the batch `start`..`start + leaves - 1`), unsigned. */
function checkpointBody(o: CheckpointOptions, schema: string): Plain {
  const root = rootFromLeafHashes(o.leaves)!;
  return {
    schema,
    checkpoint_seq: o.seq,
    batch_start_seq: o.start,
    batch_end_seq: o.start + o.leaves.length - 1,
    tree_size: o.treeSize ?? o.leaves.length,
    merkle_root: '0x' + toHex(root),
    issued_at: 1767229200 + o.seq,
    kernel_key: o.key.publicHex,
    ...(o.previous ? { previous_checkpoint_sha256: sha256Hex(canonicalBytes(tree(o.previous))) } : {}),
  };
}

/** A signed KernelCheckpoint (v1) over `leaves` (the batch `start`..`start + leaves - 1`). */
export function checkpoint(o: CheckpointOptions): { body: Plain; signature: string } {
  const body = checkpointBody(o, 'chio.checkpoint_statement.v1');
  return { body, signature: signHex(o.key.secret, canonicalBytes(tree(body))) };
}

/** The chain leaf hash of a checkpoint body (chio-format.md §16.3). */
export function chainLeafOf(body: Plain): Uint8Array {
  const { checkpoint_seq, batch_start_seq, batch_end_seq, merkle_root } = body;
  return leafHash(canonicalBytes(tree({ checkpoint_seq, batch_start_seq, batch_end_seq, merkle_root })));
}

/**
 * A signed `chio.checkpoint_statement.v2` over `leaves`, whose `chain_root` covers the chain
 * leaves of the checkpoints before it (`chainBefore`, seq order) and its own; `edit` changes the
 * body before signing (e.g. a wrong chain_root, a dropped one).
 */
export function checkpointV2(o: CheckpointOptions & { chainBefore: Uint8Array[]; edit?: (body: Plain) => void }): { body: Plain; signature: string } {
  const body = checkpointBody(o, 'chio.checkpoint_statement.v2');
  body.chain_root = '0x' + toHex(rootFromLeafHashes([...o.chainBefore, chainLeafOf(body)])!);
  o.edit?.(body);
  return { body, signature: signHex(o.key.secret, canonicalBytes(tree(body))) };
}

export function proof(cp: { body: Plain }, receiptSeq: number, leaves: Uint8Array[], index: number): Plain {
  return {
    checkpoint_seq: cp.body.checkpoint_seq,
    receipt_seq: receiptSeq,
    leaf_index: index,
    merkle_root: cp.body.merkle_root,
    proof: { tree_size: leaves.length, leaf_index: index, audit_path: inclusionProofFor(leaves, index)!.map((h) => '0x' + toHex(h)) },
  };
}

export const ndjson = (records: unknown[]): string => records.map((r) => JSON.stringify(r) + '\n').join('');

/**
 * Writes a package folder with a correct manifest; returns its path. `manifest`: more manifest
 * fields (query, proofCoverage, receiptSemantics, childReceiptScope, disclosureNotice…), written
 * after `counts` and before `files`.
 */
export function writePackage(files: Record<string, string>, opts: { counts?: Plain; skipManifest?: boolean; manifest?: Plain } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-pkg-'));
  const entries = [];
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(dir, name);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    const bytes = new TextEncoder().encode(content);
    entries.push({ path: name, sha256: sha256Hex(bytes), bytes: bytes.length });
  }
  if (!opts.skipManifest) {
    const manifest = {
      schema: 'chio.evidence_export_manifest.v1',
      exportedAt: 1767999999,
      query: {},
      ...(opts.counts ? { counts: opts.counts } : {}),
      ...opts.manifest,
      files: entries,
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  }
  return dir;
}

/** A good log: `n` receipts, one checkpoint over the first `checkpointed`, proofs for each. */
export function goodLog(n: number, checkpointed: number, key = keyFromSeed(7)) {
  const receipts = Array.from({ length: n }, (_, i) => genAReceipt({ seq: i + 1, key }));
  const leaves = receipts.slice(0, checkpointed).map(leafOf);
  const cp = checkpointed > 0 ? checkpoint({ seq: 1, start: 1, leaves, key }) : null;
  const proofs = cp ? leaves.map((_, i) => proof(cp, i + 1, leaves, i)) : [];
  return { key, receipts, leaves, cp, proofs };
}

/** A signed ChildRequestReceipt (§7) at `timestamp`. */
export function childReceipt(o: { seq: number; timestamp: number; key: { secret: Uint8Array; publicHex: string } }): Plain {
  const body: Plain = {
    id: `child-rcpt-test-${String(o.seq).padStart(4, '0')}`,
    timestamp: o.timestamp,
    session_id: 'sess-1',
    parent_request_id: 'req-root-sess-1',
    request_id: `req-${o.seq}`,
    operation_kind: 'tool_call',
    terminal_state: { state: 'completed' },
    outcome_hash: sha256Hex(new TextEncoder().encode(`outcome-${o.seq}`)),
    policy_hash: 'policy-test-v1',
    kernel_key: o.key.publicHex,
  };
  return { ...body, signature: signHex(o.key.secret, canonicalBytes(tree(body))) };
}

export interface CapabilityTokenOptions {
  id: string;
  /** Signs; also the issuer unless `issuer` says otherwise. */
  key: { secret: Uint8Array; publicHex: string };
  subject: string;
  issuer?: string;
  scope?: Plain;
  issuedAt?: number;
  expiresAt?: number;
  /** `delegation_chain` links (each with at least `capability_id`). */
  chain?: Plain[];
  /** More token fields, signed. */
  extra?: Plain;
  /** Fields added after signing (`algorithm` is never signed). */
  after?: Plain;
  /** Sign the plain body (no `schema`), as older issuers did. */
  plain?: boolean;
  /** Leave `schema` out of the token as written (it still means chio.capability.v1). */
  omitSchema?: boolean;
}

/** A `chio.capability.v1` capability token (format §16.9), signed over its schema-aware body (or the plain one). */
export function capabilityToken(o: CapabilityTokenOptions): Plain {
  const body: Plain = {
    id: o.id,
    issuer: o.issuer ?? o.key.publicHex,
    subject: o.subject,
    scope: o.scope ?? { grants: [{ server_id: '*', tool_name: 'read_file', operations: ['invoke'] }] },
    issued_at: o.issuedAt ?? 1789065516,
    expires_at: o.expiresAt ?? 1789069116,
    ...(o.chain && o.chain.length > 0 ? { delegation_chain: o.chain } : {}),
    ...o.extra,
  };
  const signed = o.plain ? body : { schema: 'chio.capability.v1', ...body };
  const signature = signHex(o.key.secret, canonicalBytes(tree(signed)));
  return { ...(o.omitSchema ? {} : { schema: 'chio.capability.v1' }), ...body, ...o.after, signature };
}

/** The `capability-lineage.ndjson` row that projects `token` (signed_token provenance), with `overrides`. */
export function lineageRowOf(token: Plain, overrides: Plain = {}): Plain {
  const chain = (token.delegation_chain as Plain[] | undefined) ?? [];
  return {
    capability_id: token.id,
    subject_key: token.subject,
    issuer_key: token.issuer,
    issued_at: token.issued_at,
    expires_at: token.expires_at,
    grants_json: JSON.stringify(token.scope),
    delegation_depth: chain.length,
    parent_capability_id: chain.length > 0 ? chain[chain.length - 1]!.capability_id : null,
    provenance: 'signed_token',
    signed_capability: token,
    ...overrides,
  };
}
