// Test-only: a hostile but properly SIGNED Chio log (issue 7, deliverable 3).
// Every string a view can display carries an attack: markup and script,
// `javascript:` URLs, template syntax, bidi overrides and isolates, zero-width
// and tag characters, mixed-script and fullwidth lookalikes, zalgo, C0/C1
// controls, astral emoji and 100 KB tokens without a space, in parameter keys
// and unsigned extra fields too, and in the file names. The receipts verify
// (so every view shows them), and a few tampered ones land in failure lists.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../lib/crypto/sha256';
import { canonicalBytes } from '../../lib/json/canonicalize';
import { checkpoint, genAReceipt, keyFromSeed, leafOf, ndjson, proof, signHex, tree, type Plain } from './forge';

/** Script that would set window.__pwned if it ever ran. */
export const PWNED = 'window.__pwned=1';

export const PAYLOADS = {
  script: `<script>${PWNED}</script>`,
  img: `<img src=x onerror="${PWNED}">`,
  svg: `"><svg onload="${PWNED}">`,
  javascript: `javascript:${PWNED}`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a server-side template probe, meant literally
  template: '{{7*7}}${7*7}<%= 7*7 %>',
  rlo: 'invoice\u202efdp.exe',
  isolates: '\u2067admin\u2069\u2066root\u2068x\u2069\u200f',
  zerowidth: 'ad\u200bm\u200ci\u200dn\u2060\ufeff',
  lookalike: 'p\u0430ypal',
  fullwidth: '\uff50\uff41\uff59\uff50\uff41\uff4c',
  zalgo:
    'Z\u0351\u0352\u0357\u035b\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a\u030b\u030c\u030d\u030e\u030f\u0310\u0311\u0312\u0313algo',
  controls: 'bell\u0007esc\u001b[31mred\u0085nel\u009fapc\u007fdel\u2028sep',
  emoji: '\u{1f9e8}\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}\u{1d54f}',
  long: 'A'.repeat(100_000),
} as const;

export type PayloadName = keyof typeof PAYLOADS;
export const PAYLOAD_NAMES = Object.keys(PAYLOADS) as PayloadName[];

/** Ids stay below this length so a receipt's URL fits in a request line; other fields get the full 100 KB. */
const ID_MAX = 1_000;

/** A hostile string for one field: the payload first (so `javascript:` leads), then which field it is. */
export function hostile(name: PayloadName, field: string, max = Infinity): string {
  const p = PAYLOADS[name];
  return `${p.length > max ? p.slice(0, max) : p}/${field}`;
}

const KEY = keyFromSeed(0x66);
const sha = (s: string) => sha256Hex(new TextEncoder().encode(s));

function sign(body: Plain): Plain {
  return { ...body, signature: signHex(KEY.secret, canonicalBytes(tree(body))) };
}

/** A Gen A tool receipt whose every string (parameters' keys too, metadata, the call chain) is hostile. */
function toolReceipt(seq: number, name: PayloadName, extra: Plain = {}): Plain {
  const h = (field: string, max?: number) => hostile(name, field, max);
  const parameters = { [h('param-key', ID_MAX)]: h('param-value'), url: h('url'), nested: { [h('nested-key', ID_MAX)]: [h('list-item'), seq] } };
  const deny = seq % 2 === 0;
  const cost = 100 + seq;
  return genAReceipt({
    seq,
    key: KEY,
    parameters,
    extra: {
      id: h(`rcpt-${seq}`, ID_MAX),
      capability_id: h('capability', ID_MAX),
      tool_server: h('server', ID_MAX),
      tool_name: h('tool', ID_MAX),
      policy_hash: h('policy'),
      tenant_id: h('tenant'),
      decision: deny ? { verdict: 'deny', reason: h('reason'), guard: h('guard', ID_MAX) } : { verdict: 'allow' },
      evidence: [
        { guard_name: h('guard', ID_MAX), verdict: !deny, details: h('evidence') },
        { guard_name: h('second-guard', ID_MAX), verdict: true },
      ],
      metadata: {
        financial: {
          grant_index: 0,
          cost_charged: deny ? 0 : cost,
          currency: h('currency', 200),
          budget_remaining: deny ? 10_000 : 10_000 - cost,
          budget_total: 10_000,
          delegation_depth: 1,
          root_budget_holder: h('holder', ID_MAX),
          settlement_status: deny ? 'not_applicable' : seq % 3 === 0 ? 'failed' : 'pending',
          payment_reference: h('payment'),
          ...(deny ? { attempted_cost: cost } : {}),
        },
        governed_transaction: {
          call_chain: { session_id: h('session', ID_MAX), request_id: h(`request-${seq}`, ID_MAX), parent_request_id: h('root-request', ID_MAX) },
        },
      },
      ...extra,
    },
  });
}

/** A signed ChildRequestReceipt in the same hostile session, the parent of the tool call above. */
function childReceipt(seq: number, name: PayloadName): Plain {
  const h = (field: string) => hostile(name, field, ID_MAX);
  return sign({
    id: h(`child-${seq}`),
    timestamp: 1767225600 + seq * 10 - 5,
    session_id: h('session'),
    parent_request_id: h('root-request'),
    request_id: h(`child-request-${seq}`),
    operation_kind: 'tool_call',
    terminal_state: seq % 2 === 0 ? { state: 'cancelled', reason: hostile(name, 'cancel-reason') } : { state: 'completed' },
    outcome_hash: sha(`outcome-${seq}`),
    policy_hash: h('policy'),
    kernel_key: KEY.publicHex,
  });
}

/** A signed HttpReceipt (sidecar) with hostile route, method, reason and guard names. */
function httpReceipt(seq: number, name: PayloadName): Plain {
  const h = (field: string) => hostile(name, field, ID_MAX);
  return sign({
    id: h(`http-${seq}`),
    request_id: h(`http-request-${seq}`),
    route_pattern: h('route'),
    method: h('method'),
    caller_identity_hash: sha(`caller-${seq}`),
    session_id: h('session'),
    verdict: { verdict: 'deny', reason: hostile(name, 'http-reason'), guard: h('http-guard'), http_status: 403 },
    evidence: [{ guard_name: h('http-guard'), verdict: false, details: hostile(name, 'http-evidence') }],
    response_status: 403,
    timestamp: 1767225600 + seq * 10 - 3,
    content_hash: sha(`http-${seq}`),
    policy_hash: h('policy'),
    capability_id: h('capability'),
    kernel_key: KEY.publicHex,
  });
}

export interface HostileCorpus {
  dir: string;
  /** The files to open together, the receipts file's name itself hostile. */
  files: string[];
  /** A trust file whose key labels are hostile (import it on /trust). */
  trustFile: string;
  kernelKey: string;
  /** Verified tool receipt ids by payload. */
  toolIds: Record<PayloadName, string>;
  /** Receipts that must fail, by what was done to them. */
  tampered: { signature: string; parameterHash: string; unsignedField: string };
}

/** Writes the corpus into `dir` (created) and says what is where. */
export function writeHostileCorpus(dir: string): HostileCorpus {
  mkdirSync(dir, { recursive: true });
  const tools = PAYLOAD_NAMES.map((name, i) => toolReceipt(i + 1, name));
  const n = tools.length;
  // Tampered after signing: a changed tool name (signature), parameters that do not match their hash.
  const forged: Plain = { ...toolReceipt(n + 1, 'rlo'), tool_name: hostile('lookalike', 'forged-tool') };
  const badHash = toolReceipt(n + 2, 'img', { action: { parameters: { [PAYLOADS.script]: PAYLOADS.svg }, parameter_hash: sha('not these parameters') } });
  // An unsigned extra field on a verified receipt: shown, marked not signed, and a warning.
  const extra: Plain = { ...toolReceipt(n + 3, 'zerowidth'), [PAYLOADS.img]: PAYLOADS.rlo + PAYLOADS.long, note: PAYLOADS.javascript };
  const receipts = [...tools, forged, badHash, extra];
  const leaves = tools.map(leafOf);
  const cp = checkpoint({ seq: 1, start: 1, leaves, key: KEY });
  // A second checkpoint over the two tampered receipts, signed, whose schema is markup: a
  // structure failure the overview lists. The third (unsigned field) stays uncheckpointed.
  const cpBad = checkpoint({ seq: 2, start: n + 1, leaves: [forged, badHash].map(leafOf), key: KEY, previous: cp.body });
  const badBody = { ...cpBad.body, schema: `${PAYLOADS.svg}${PAYLOADS.rlo}` };
  const cpHostile = { body: badBody, signature: signHex(KEY.secret, canonicalBytes(tree(badBody))) };

  const receiptsName = `receipts-${PAYLOADS.img}-${PAYLOADS.rlo}-p\u0430ypal.ndjson`.replaceAll('/', '\u2215');
  const write = (name: string, text: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, text);
    return full;
  };
  // A line that is not JSON, quoting markup: a parse error with its file and line.
  const garbage = `{"id": "${PAYLOADS.script}", ${PAYLOADS.img}\n`;
  const files = [
    write(receiptsName, ndjson(receipts.map((receipt, i) => ({ seq: i + 1, receipt }))) + garbage),
    write('child-receipts.ndjson', ndjson(PAYLOAD_NAMES.map((name, i) => childReceipt(i + 1, name)))),
    write('http-receipts.ndjson', ndjson(PAYLOAD_NAMES.map((name, i) => httpReceipt(i + 1, name)))),
    write('checkpoints.ndjson', ndjson([cp, cpHostile])),
    write('inclusion-proofs.ndjson', ndjson(leaves.map((_, i) => proof(cp, i + 1, leaves, i)))),
    write(
      'capability-lineage.ndjson',
      ndjson(
        PAYLOAD_NAMES.map((name) => ({
          capability_id: hostile(name, 'capability', ID_MAX),
          parent_capability_id: hostile(name, 'parent-capability', ID_MAX),
          subject_key: hostile(name, 'subject', ID_MAX),
          issuer_key: hostile(name, 'issuer', ID_MAX),
          issued_at: 1767225600,
          expires_at: 1767312000,
          delegation_depth: 1,
          grants_json: JSON.stringify({ grants: [{ server_id: hostile(name, 'grant-server', 500), tool_name: hostile(name, 'grant-tool', 500) }] }),
        })),
      ),
    ),
  ];
  const trustFile = write(
    'trust.json',
    JSON.stringify([{ key: KEY.publicHex, label: `${PAYLOADS.rlo} ${PAYLOADS.lookalike} ${PAYLOADS.zerowidth} ${PAYLOADS.img} ${PAYLOADS.long}` }]),
  );
  const toolIds = Object.fromEntries(PAYLOAD_NAMES.map((name, i) => [name, tools[i]!.id as string])) as Record<PayloadName, string>;
  return {
    dir,
    files,
    trustFile,
    kernelKey: KEY.publicHex,
    toolIds,
    tampered: { signature: forged.id as string, parameterHash: badHash.id as string, unsignedField: extra.id as string },
  };
}
