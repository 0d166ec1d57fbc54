// Display labels of the reference verification result (chio-format.md §5,
// chio-binding-helpers `result`). They describe what the receipt *claims* and
// are computed even when its signature fails; the UI must show them as claimed.
import type { DecodedToolReceipt } from './types';

export type ClaimedResult = 'Authorized' | 'Observed' | 'Advisory' | 'Allowed' | 'Denied' | 'Cancelled' | 'Incomplete' | 'Invalid';

export function claimedResult(r: DecodedToolReceipt): ClaimedResult {
  const kind = r.genB?.receiptKind ?? 'mediated_decision';
  const boundary = r.genB?.boundaryClass ?? 'prevent';
  const verdict = r.decision?.verdict;
  if (kind === 'mediated_decision' && boundary === 'prevent' && verdict === 'allow') return 'Authorized';
  if (kind === 'trace_observation') return 'Observed';
  if (kind === 'advisory_evaluation') return 'Advisory';
  switch (verdict) {
    case 'allow':
      return 'Allowed';
    case 'deny':
      return 'Denied';
    case 'cancelled':
      return 'Cancelled';
    case 'incomplete':
      return 'Incomplete';
    default:
      return 'Invalid';
  }
}
