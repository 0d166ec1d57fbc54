// The demo's tool servers, tools and guards: which guards run for which tool, in the kernel's fixed guard order.

export type GuardName =
  | 'forbidden-path'
  | 'path-allowlist'
  | 'shell-command'
  | 'egress-allowlist'
  | 'mcp-tool'
  | 'secret-leak'
  | 'patch-integrity'
  | 'velocity'
  | 'budget';

/** Guards run in this order; a denial stops the pipeline, so later guards leave no evidence. */
export const GUARD_ORDER: readonly GuardName[] = [
  'forbidden-path',
  'path-allowlist',
  'shell-command',
  'egress-allowlist',
  'mcp-tool',
  'secret-leak',
  'patch-integrity',
  'velocity',
  'budget',
];

export type ToolName =
  | 'file_read'
  | 'file_write'
  | 'file_delete'
  | 'list_dir'
  | 'http_get'
  | 'http_post'
  | 'run_command'
  | 'transfer_funds'
  | 'refund'
  | 'sql_query'
  | 'send_email';

export interface ToolSpec {
  server: string;
  tool: ToolName;
  /** The guards relevant to this tool (without `budget`, which runs only under a budgeted grant). */
  guards: readonly GuardName[];
  /** How a budgeted grant on this tool charges: a payment amount, or a metered fee per call. */
  money?: 'payment' | 'metered';
}

function spec(server: string, tool: ToolName, guards: GuardName[], money?: ToolSpec['money']): ToolSpec {
  const ordered = [...guards].sort((a, b) => GUARD_ORDER.indexOf(a) - GUARD_ORDER.indexOf(b));
  return { server, tool, guards: ordered, ...(money ? { money } : {}) };
}

export const TOOLS: Record<ToolName, ToolSpec> = {
  file_read: spec('srv-files', 'file_read', ['forbidden-path', 'path-allowlist', 'mcp-tool', 'secret-leak']),
  file_write: spec('srv-files', 'file_write', ['forbidden-path', 'path-allowlist', 'mcp-tool', 'secret-leak', 'patch-integrity']),
  file_delete: spec('srv-files', 'file_delete', ['forbidden-path', 'path-allowlist', 'mcp-tool', 'velocity']),
  list_dir: spec('srv-files', 'list_dir', ['forbidden-path', 'path-allowlist', 'mcp-tool']),
  http_get: spec('srv-http', 'http_get', ['egress-allowlist', 'mcp-tool', 'velocity'], 'metered'),
  http_post: spec('srv-http', 'http_post', ['egress-allowlist', 'mcp-tool', 'secret-leak', 'velocity']),
  run_command: spec('srv-shell', 'run_command', ['forbidden-path', 'shell-command', 'mcp-tool', 'secret-leak', 'velocity']),
  transfer_funds: spec('srv-payments', 'transfer_funds', ['mcp-tool', 'velocity'], 'payment'),
  refund: spec('srv-payments', 'refund', ['mcp-tool', 'velocity'], 'payment'),
  sql_query: spec('srv-db', 'sql_query', ['mcp-tool', 'secret-leak', 'velocity'], 'metered'),
  send_email: spec('srv-mail', 'send_email', ['egress-allowlist', 'mcp-tool', 'secret-leak', 'velocity']),
};

export const ALL_TOOLS: readonly ToolSpec[] = Object.values(TOOLS);

/** The guards that run for one call: the tool's own, plus `budget` under a budgeted grant. */
export function guardsFor(tool: ToolSpec, budgeted: boolean): GuardName[] {
  return budgeted ? [...tool.guards, 'budget'] : [...tool.guards];
}

/** How often each guard is the one that blocks, when a call is denied by policy (budget denials come from the budgets). */
export const DENY_WEIGHTS: Readonly<Record<GuardName, number>> = {
  'forbidden-path': 3,
  'path-allowlist': 2,
  'shell-command': 3,
  'egress-allowlist': 3,
  'mcp-tool': 2,
  'secret-leak': 2,
  'patch-integrity': 1,
  velocity: 1,
  budget: 0,
};
