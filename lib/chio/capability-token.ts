// The `chio.capability.v1` capability token a signed lineage row carries
// (chio-format-v2.md §16.9; upstream `capability/token.rs`). Decodes the token
// and builds the bytes its issuer signed: RFC 8785 of the typed token minus
// `signature` and `algorithm`, `schema` included (a missing `schema` is
// `chio.capability.v1`), and, for a plain token, the older body without
// `schema`. As Rust re-serializes: `issuer`/`subject` in `to_hex()` form,
// `null` optionals and empty lists omitted. Nested values (scope, delegation
// links, proofs, budgets) are signed as written: their typed normalization is
// UNCONFIRMED (§16.12). Attacker-controlled input; never throws.
import { parseChioPublicKey, signatureAlgorithmOf } from '../crypto/chio-signature';
import { type JsonObject, type JsonValue, isJsonNumber, isJsonObject, jsonTypeName } from '../json/value';
import { U64_MAX } from './fields';
import { SIGNING_ALGORITHMS } from './tool-receipt';

export const CAPABILITY_SCHEMA = 'chio.capability.v1';

export interface DecodedCapabilityToken {
  /** As written, or `chio.capability.v1` when absent. */
  schema: string;
  id: string;
  /** `issuer` and `subject` as `to_hex()` writes them (as written when they are not keys: `issues` says so). */
  issuer: string;
  subject: string;
  scope: JsonObject;
  issuedAt: bigint;
  expiresAt: bigint;
  /** `capability_id` of each `delegation_chain` link, root first. */
  chain: string[];
  signature: string;
  /** The schema-aware signing body (what newly issued tokens sign). */
  signingBody: JsonObject;
  /** The body without `schema`, which a plain token may have been signed over instead; null when not plain. */
  plainBody: JsonObject | null;
}

/**
 * `ok: false`: the token cannot be read as a token (a missing or mistyped core field), so its
 * projection cannot be compared either. `ok: true` with `issues`: readable, but it fails
 * schema validation (wrong schema, caveats, an `algorithm` that lies, unknown keys…).
 */
export type TokenDecode = { ok: true; token: DecodedCapabilityToken; issues: string[] } | { ok: false; issues: string[] };

/** Every field of the token struct. */
const KNOWN = new Set([
  'schema',
  'id',
  'issuer',
  'subject',
  'scope',
  'issued_at',
  'expires_at',
  'delegation_chain',
  'algorithm',
  'caveats',
  'scope_attenuations',
  'attenuation_proof',
  'budget_share_bps',
  'aggregate_invocation_budget',
  'signature',
]);
/** `Option<…>` fields: `null` reads as absent. */
const OPTIONAL = new Set(['algorithm', 'scope_attenuations', 'attenuation_proof', 'budget_share_bps', 'aggregate_invocation_budget']);
/** Lists Rust leaves out when empty. */
const OMIT_EMPTY = new Set(['delegation_chain', 'caveats', 'scope_attenuations']);
/** What makes a token not plain: then only the schema-aware body is accepted. */
const NOT_PLAIN = ['caveats', 'scope_attenuations', 'attenuation_proof', 'budget_share_bps', 'aggregate_invocation_budget'];

function u64(v: JsonValue | undefined): bigint | null {
  if (!isJsonNumber(v) || !v.isIntegerLiteral) return null;
  const n = BigInt(v.raw);
  return n >= 0n && n <= U64_MAX ? n : null;
}

/** A key field: its `to_hex()` form, and an issue when it is not one or not written that way. */
function keyField(name: string, text: string, issues: string[]): string {
  const parsed = parseChioPublicKey(text);
  if (!parsed.ok) {
    issues.push(`${name} is not a valid public key (${parsed.reason.replace(/_/g, ' ')})`);
    return text;
  }
  if (parsed.key.normalized !== text) issues.push(`${name} is not written as Chio writes keys (lowercase hex, no 0x)`);
  return parsed.key.normalized;
}

export function decodeCapabilityToken(v: JsonValue): TokenDecode {
  if (!isJsonObject(v)) return { ok: false, issues: [`the token is not an object (found ${jsonTypeName(v)})`] };
  const fatal: string[] = [];
  const str = (key: string): string => {
    const x = v.get(key);
    if (typeof x === 'string') return x;
    fatal.push(`${key}: expected a string, found ${jsonTypeName(x)}`);
    return '';
  };
  const int = (key: string): bigint => {
    const n = u64(v.get(key));
    if (n === null) fatal.push(`${key}: expected an unsigned 64-bit integer, found ${jsonTypeName(v.get(key))}`);
    return n ?? 0n;
  };
  const id = str('id');
  const issuerText = str('issuer');
  const subjectText = str('subject');
  const signature = str('signature');
  const issuedAt = int('issued_at');
  const expiresAt = int('expires_at');
  const scope = v.get('scope');
  if (!isJsonObject(scope)) fatal.push(`scope: expected an object, found ${jsonTypeName(scope)}`);
  const chain = readChain(v.get('delegation_chain'), fatal);
  if (fatal.length > 0 || !isJsonObject(scope)) return { ok: false, issues: fatal };

  const issues: string[] = [];
  const schema = readSchema(v.get('schema'), issues);
  const issuer = keyField('issuer', issuerText, issues);
  const subject = keyField('subject', subjectText, issues);
  const unknown = [...v.keys()].filter((k) => !KNOWN.has(k));
  if (unknown.length > 0)
    issues.push(`carries ${unknown.map((k) => JSON.stringify(k)).join(', ')}, outside the ${CAPABILITY_SCHEMA} fields (not covered by its signature)`);
  checkOptionals(v, signature, issues);
  const { signingBody, plainBody } = signingBodies(v, schema, issuer, subject);
  return { ok: true, token: { schema, id, issuer, subject, scope, issuedAt, expiresAt, chain, signature, signingBody, plainBody }, issues };
}

/** `schema` as written (absent: chio.capability.v1), and an issue when it is not that. */
function readSchema(v: JsonValue | undefined, issues: string[]): string {
  if (v === undefined) return CAPABILITY_SCHEMA;
  if (typeof v !== 'string') {
    issues.push(`schema: expected a string, found ${jsonTypeName(v)}`);
    return CAPABILITY_SCHEMA;
  }
  if (v !== CAPABILITY_SCHEMA) issues.push(`schema is ${JSON.stringify(v)}, not ${CAPABILITY_SCHEMA}`);
  return v;
}

/**
 * What the issuer signed, as Rust re-serializes the token: every field but `signature` and
 * `algorithm`, `schema` always, keys in `to_hex()` form, `null` optionals and empty lists left out.
 * A plain token (nothing beyond the v1 body) may instead have been signed without `schema`.
 */
function signingBodies(v: JsonObject, schema: string, issuer: string, subject: string): { signingBody: JsonObject; plainBody: JsonObject | null } {
  const signingBody: JsonObject = new Map([['schema', schema]]);
  for (const [k, x] of v) {
    if (k === 'signature' || k === 'algorithm' || k === 'schema' || !KNOWN.has(k)) continue;
    if (x === null && OPTIONAL.has(k)) continue;
    if (Array.isArray(x) && x.length === 0 && OMIT_EMPTY.has(k)) continue;
    signingBody.set(k, k === 'issuer' ? issuer : k === 'subject' ? subject : x);
  }
  const plain = schema === CAPABILITY_SCHEMA && NOT_PLAIN.every((k) => !signingBody.has(k));
  return { signingBody, plainBody: plain ? new Map([...signingBody].filter(([k]) => k !== 'schema')) : null };
}

/** `delegation_chain`: absent or a list of links, each naming its `capability_id`. */
function readChain(v: JsonValue | undefined, fatal: string[]): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    fatal.push(`delegation_chain: expected an array, found ${jsonTypeName(v)}`);
    return [];
  }
  const ids: string[] = [];
  v.forEach((link, i) => {
    const id = isJsonObject(link) ? link.get('capability_id') : undefined;
    if (typeof id === 'string') ids.push(id);
    else
      fatal.push(
        `delegation_chain[${i}].capability_id: expected a string, found ${isJsonObject(link) ? jsonTypeName(id) : `a link that is ${jsonTypeName(link)}`}`,
      );
  });
  return ids;
}

/** The schema rules for the optional fields: types, no caveats, an `algorithm` that agrees with the signature. */
function checkOptionals(v: JsonObject, signature: string, issues: string[]): void {
  const caveats = v.get('caveats');
  if (caveats === null) issues.push('caveats is null (Chio omits it when empty)');
  if (caveats !== undefined && caveats !== null) {
    if (!Array.isArray(caveats)) issues.push(`caveats: expected an array, found ${jsonTypeName(caveats)}`);
    else if (caveats.length > 0) issues.push(`carries ${caveats.length} caveat(s); ${CAPABILITY_SCHEMA} rejects non-empty caveats`);
  }
  const attenuations = v.get('scope_attenuations');
  if (attenuations !== undefined && attenuations !== null && !Array.isArray(attenuations))
    issues.push(`scope_attenuations: expected an array, found ${jsonTypeName(attenuations)}`);
  const share = v.get('budget_share_bps');
  if (share !== undefined && share !== null && (u64(share) === null || u64(share)! > 65535n))
    issues.push('budget_share_bps: expected an unsigned 16-bit integer');
  for (const k of ['attenuation_proof', 'aggregate_invocation_budget']) {
    const x = v.get(k);
    if (x !== undefined && x !== null && !isJsonObject(x)) issues.push(`${k}: expected an object, found ${jsonTypeName(x)}`);
  }
  const algorithm = v.get('algorithm');
  if (algorithm === undefined || algorithm === null) return;
  if (typeof algorithm !== 'string' || !(SIGNING_ALGORITHMS as readonly string[]).includes(algorithm)) {
    issues.push(
      `algorithm: expected one of ${SIGNING_ALGORITHMS.join(', ')}, found ${typeof algorithm === 'string' ? JSON.stringify(algorithm) : jsonTypeName(algorithm)}`,
    );
    return;
  }
  const actual = signatureAlgorithmOf(signature);
  if (actual !== null && actual !== algorithm) issues.push(`algorithm says ${algorithm}, but the signature is ${actual}`);
}
