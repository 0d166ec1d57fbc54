// What the explorer shows of a receipt (its columns and filters), taken from
// the decoded receipt in the same pass that verifies it. Plain strings and
// numbers (clone-cheap); amounts stay decimal strings, never floats. These are
// the receipt's *claims*: the verdict says whether they are signed and intact.
import { type JsonValue, isJsonObject } from '../json/value';
import type { DecodedReceipt } from '../chio/types';

export interface ReceiptView {
  order: number;
  id: string;
  type: DecodedReceipt['type'];
  generation?: 'A' | 'B';
  seq?: string;
  /** Unix seconds (null when beyond what a JS number holds exactly). */
  time: number | null;
  toolServer?: string;
  toolName?: string;
  /** Tool: allow/deny/cancelled/incomplete (absent for trace/advisory); child: its terminal state; HTTP: its verdict. */
  decision?: string;
  /** The guard that blocked a denied call. */
  guard?: string;
  reason?: string;
  capabilityId?: string;
  policyHash: string;
  trustLevel?: string;
  receiptKind?: string;
  /** Gen B: what the kernel could enforce (`prevent`, `detect_only`, `advisory_only`). */
  boundaryClass?: string;
  tenant?: string;
  /** Financial claims, as decimal strings in minor units. */
  cost?: string;
  attemptedCost?: string;
  currency?: string;
  settlement?: string;
  /** Request tree links (child receipts; tool receipts through governed call-chain metadata). */
  sessionId?: string;
  requestId?: string;
  parentRequestId?: string;
  parentReceiptId?: string;
  operationKind?: string;
  kernelKey: string | null;
  file: string;
  line: number;
  /** Set by the verify worker when a check of the record itself failed (the verdict is `failed` whatever the log adds). */
  failedEarly?: true;
}

const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

function callChain(metadata: JsonValue | undefined): Partial<ReceiptView> {
  if (!isJsonObject(metadata)) return {};
  const gt = metadata.get('governed_transaction');
  const chain = isJsonObject(gt) ? gt.get('call_chain') : undefined;
  if (!isJsonObject(chain)) return {};
  const out: Partial<ReceiptView> = {};
  const sessionId = str(chain.get('session_id'));
  const requestId = str(chain.get('request_id'));
  const parentRequestId = str(chain.get('parent_request_id'));
  const parentReceiptId = str(chain.get('parent_receipt_id'));
  if (sessionId !== undefined) out.sessionId = sessionId;
  if (requestId !== undefined) out.requestId = requestId;
  if (parentRequestId !== undefined) out.parentRequestId = parentRequestId;
  if (parentReceiptId !== undefined) out.parentReceiptId = parentReceiptId;
  return out;
}

export function receiptView(r: DecodedReceipt, where: { order: number; file: string; line: number; seq?: bigint }): ReceiptView {
  const t = Number(r.timestamp);
  const base: ReceiptView = {
    order: where.order,
    id: r.id,
    type: r.type,
    time: Number.isSafeInteger(t) ? t : null,
    policyHash: r.policyHash,
    kernelKey: r.kernelKeyNormalized,
    file: where.file,
    line: where.line,
    ...(where.seq !== undefined ? { seq: where.seq.toString() } : {}),
  };
  if (r.type === 'child') {
    return { ...base, decision: r.terminalState, sessionId: r.sessionId, requestId: r.requestId, parentRequestId: r.parentRequestId, operationKind: r.operationKind };
  }
  if (r.type === 'http') {
    return { ...base, toolServer: r.method, toolName: r.routePattern, decision: r.verdict, requestId: r.requestId, ...(r.capabilityId ? { capabilityId: r.capabilityId } : {}) };
  }
  const f = r.financial;
  return {
    ...base,
    generation: r.generation,
    toolServer: r.toolServer,
    toolName: r.toolName,
    capabilityId: r.capabilityId,
    trustLevel: r.trustLevel,
    ...(r.decision ? { decision: r.decision.verdict } : {}),
    ...(r.decision?.guard !== undefined ? { guard: r.decision.guard } : {}),
    ...(r.decision?.reason !== undefined ? { reason: r.decision.reason } : {}),
    ...(r.genB ? { receiptKind: r.genB.receiptKind, boundaryClass: r.genB.boundaryClass } : {}),
    ...(r.tenantId !== undefined ? { tenant: r.tenantId } : {}),
    ...(f ? { cost: f.costCharged.toString(), currency: f.currency, settlement: f.settlementStatus } : {}),
    ...(f?.attemptedCost !== undefined ? { attemptedCost: f.attemptedCost.toString() } : {}),
    ...callChain(r.metadata),
  };
}
