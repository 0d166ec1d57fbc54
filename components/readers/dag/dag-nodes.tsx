'use client';
// The DAG's node faces: a receipt (child or tool) with its terminal state or
// decision and its verdict in words as well as colour, a request that has no
// receipt of its own, and a capability of the delegation lineage. Every field
// is attacker-controlled and rendered as text only.
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import Link from 'next/link';
import { createContext, memo, useContext } from 'react';
import type { DagNode } from '../../../lib/readers/dag';
import type { LineageNode } from '../../../lib/readers/lineage-graph';
import { type LinkStatus, linkText } from '../../../lib/readers/lineage-status';
import { formatTime } from '../../explorer/format';
import { SafeText } from '../../ui/safe-text';
import { revealPlain } from '../../../lib/text/reveal';

/** What a node can ask of the view: fold or unfold its subtree. */
export const DagActions = createContext<{ toggle: (key: string) => void }>({ toggle: () => undefined });

export type DagNodeData = DagNode & Record<string, unknown>;

export const RECEIPT_SIZE = { width: 236, height: 74 };
export const REQUEST_SIZE = { width: 168, height: 50 };
export const CAPABILITY_SIZE = { width: 250, height: 84 };

const VERDICT_TEXT = {
  verified: '✓ verified',
  failed: '✗ FAILED',
  unverified: '? NOT VERIFIED',
  unpinned: '◇ intact, signer not pinned',
  pending: '… not yet checked',
} as const;

/** Terminal states and decisions, in words a reader knows, with a tone for colour. */
function stateTone(state: string | undefined): 'good' | 'bad' | 'warn' | 'neutral' {
  if (state === 'completed' || state === 'allow') return 'good';
  if (state === 'deny') return 'bad';
  if (state === 'incomplete' || state === 'cancelled') return 'warn';
  return 'neutral';
}

/** The first and last `keep` code points of an id (never half a surrogate pair); show it through <SafeText>. */
export function shortId(id: string, keep = 10): string {
  if (id.length <= keep * 2 + 1) return id;
  const cps = Array.from(id);
  return cps.length <= keep * 2 + 1 ? id : `${cps.slice(0, keep).join('')}…${cps.slice(-keep).join('')}`;
}

function Fold({ n }: { n: DagNode }) {
  const { toggle } = useContext(DagActions);
  if (n.children === 0) return null;
  const shown = n.collapsed
    ? `▸ ${n.hidden.toLocaleString('en-US')} hidden`
    : n.hidden > 0
      ? `▸ ${n.hidden.toLocaleString('en-US')} off this path`
      : `▾ ${n.children.toLocaleString('en-US')}`;
  return (
    <button
      type="button"
      className="dag-fold nodrag"
      data-testid="dag-fold"
      aria-label={n.collapsed ? `Expand: show the ${n.hidden} requests below` : `Collapse the ${n.children} requests below`}
      aria-expanded={!n.collapsed}
      onClick={(e) => {
        e.stopPropagation();
        toggle(n.key);
      }}
    >
      {shown}
    </button>
  );
}

export const ReceiptNodeView = memo(function ReceiptNodeView({ data }: NodeProps<Node<DagNodeData>>) {
  const n = data;
  const verdict = n.verdict ?? 'pending';
  const tone = stateTone(n.state);
  return (
    <div
      className={`dag-node dag-${n.kind} v-${verdict}${n.match ? ' match' : ''}${n.focus ? ' focus' : ''}`}
      data-testid="dag-node"
      data-kind={n.kind}
      data-verdict={verdict}
      data-receipt-id={n.receiptId}
      data-state={n.state}
      title={`${n.kind === 'child' ? 'Child receipt' : 'Tool receipt'} ${revealPlain(n.receiptId!, 200)}${n.requestId ? `\nrequest ${revealPlain(n.requestId, 200)}` : ''}${n.time !== undefined ? `\n${formatTime(n.time)} UTC` : ''}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="dag-node-top">
        <span className="dag-kind">{n.kind === 'child' ? 'request' : 'tool call'}</span>
        <Link href={`/receipts/${encodeURIComponent(n.receiptId!)}`} className="dag-label nodrag" prefetch={false}>
          <SafeText text={n.label} max={40} expandable={false} />
        </Link>
      </div>
      <div className="dag-node-mid">
        <span className={`dag-state ${tone}`}>{n.state ?? (n.kind === 'tool' ? 'no decision' : 'no state')}</span>
        <span className={`dag-verdict v-${verdict}`}>{VERDICT_TEXT[verdict]}</span>
      </div>
      <div className="dag-node-bottom">
        <code className="dag-id">
          <SafeText text={shortId(n.receiptId!, 9)} />
        </code>
        {n.cycle && (
          <span className="dag-cycle" title="This receipt's parent link formed a cycle and was cut here">
            cycle cut
          </span>
        )}
        <Fold n={n} />
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

export const RequestNodeView = memo(function RequestNodeView({ data }: NodeProps<Node<DagNodeData>>) {
  const n = data;
  return (
    <div
      className={`dag-node dag-request${n.match ? ' match' : ''}`}
      data-testid="dag-node"
      data-kind="request"
      title={`Request ${n.requestId}: named as a parent, has no receipt of its own in this log`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="dag-node-top">
        <span className="dag-kind">request, no receipt</span>
      </div>
      <div className="dag-node-bottom">
        <code className="dag-id">
          <SafeText text={shortId(n.requestId ?? '', 8)} />
        </code>
        <Fold n={n} />
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

/** A capability of the lineage, with what verification said of its row (absent when it has none). */
export type CapabilityData = LineageNode & { status?: LinkStatus } & Record<string, unknown>;

export const CapabilityNodeView = memo(function CapabilityNodeView({ data }: NodeProps<Node<CapabilityData>>) {
  const r = data.row;
  const status = data.status;
  return (
    <div
      className={`dag-node dag-capability${r ? '' : ' unknown'}${status ? ` link-${status.kind}` : ''}`}
      data-testid="lineage-node"
      data-capability-id={data.capabilityId}
      data-used={data.used}
      data-link={status?.kind}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="dag-node-top">
        <span className="dag-kind">
          {r ? (r.delegationDepth === 0 ? 'capability, issued' : `delegated, depth ${r.delegationDepth ?? '?'}`) : 'capability, no lineage row'}
        </span>
        {status && (
          <span className="dag-link" title={linkText(status)}>
            {linkText(status)}
          </span>
        )}
      </div>
      <div className="dag-node-mid">
        <code className="dag-id">
          <SafeText text={shortId(data.capabilityId, 10)} />
        </code>
      </div>
      <div className="dag-node-bottom">
        <span className="muted">
          {r?.subjectKey ? (
            <>
              to <SafeText text={shortId(r.subjectKey, 5)} />
            </>
          ) : (
            ''
          )}
        </span>
        <span>
          {data.used > 0
            ? `${data.used.toLocaleString('en-US')} receipt${data.used === 1 ? '' : 's'} here`
            : r
              ? `${r.grants.length} grant${r.grants.length === 1 ? '' : 's'}`
              : ''}
        </span>
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});
