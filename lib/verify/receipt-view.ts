// What the explorer shows of a receipt (its columns and filters), taken from
// the decoded receipt in the same pass that verifies it. Plain strings and
// numbers (clone-cheap); amounts stay decimal strings, never floats. These are
// the receipt's *claims*: the verdict says whether they are signed and intact.
import { type JsonValue, isJsonObject } from '../json/value';
import { parseOracleEvidence } from '../chio/financial';
import type { DecodedReceipt, DecodedToolReceipt } from '../chio/types';
import type { ReceiptView } from '../verdict/receipt-view';
import { encodeGuardTrail, firstFailedGuard } from './guard-trail';

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

/** The financial columns of a tool receipt (absent when it has no well-formed metadata.financial). */
function financialView(r: DecodedToolReceipt): Partial<ReceiptView> {
  const f = r.financial;
  if (!f) return {};
  const oracle = parseOracleEvidence(r.metadata);
  return {
    cost: f.costCharged.toString(),
    currency: f.currency,
    settlement: f.settlementStatus,
    rootBudgetHolder: f.rootBudgetHolder,
    grantIndex: f.grantIndex.toString(),
    budgetTotal: f.budgetTotal.toString(),
    budgetRemaining: f.budgetRemaining.toString(),
    ...(f.paymentReference !== undefined ? { paymentReference: f.paymentReference } : {}),
    ...(f.attemptedCost !== undefined ? { attemptedCost: f.attemptedCost.toString() } : {}),
    ...(oracle ? { oracle: JSON.stringify(oracle.ok ? oracle.value : { error: oracle.error }) } : {}),
  };
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
    return {
      ...base,
      decision: r.terminalState,
      sessionId: r.sessionId,
      requestId: r.requestId,
      parentRequestId: r.parentRequestId,
      operationKind: r.operationKind,
    };
  }
  if (r.type === 'http') {
    return {
      ...base,
      toolServer: r.method,
      toolName: r.routePattern,
      decision: r.verdict,
      requestId: r.requestId,
      ...(r.capabilityId ? { capabilityId: r.capabilityId } : {}),
    };
  }
  const guards = encodeGuardTrail(r.evidence);
  const guardFailed = firstFailedGuard(r.evidence);
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
    ...(guards !== undefined ? { guards } : {}),
    ...(guardFailed !== undefined ? { guardFailed } : {}),
    ...(r.genB ? { receiptKind: r.genB.receiptKind, boundaryClass: r.genB.boundaryClass } : {}),
    ...(r.tenantId !== undefined ? { tenant: r.tenantId } : {}),
    ...financialView(r),
    ...callChain(r.metadata),
  };
}
