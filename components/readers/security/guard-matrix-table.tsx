'use client';
// The guard evidence matrix: tools down, guards across in their evaluation
// order, each cell how often the guard passed, failed or was not evaluated on
// the tool's verified receipts, tinted by its failure share. A failing count
// opens the explorer on those receipts (guardFailed); a tool opens its calls.
import Link from 'next/link';
import type { GuardMatrix, MatrixCell } from '../../../lib/readers/guard-matrix';
import { revealPlain } from '../../../lib/text/reveal';
import { SafeText } from '../../ui/safe-text';

const n = (x: number) => x.toLocaleString('en-US');

function cellTitle(tool: string, guard: string, c: MatrixCell): string {
  const parts = [`${n(c.pass)} passed`, `${n(c.fail)} failed`];
  if (c.notReached) parts.push(`${n(c.notReached)} not reached (an earlier guard failed)`);
  if (c.notRun) parts.push(`${n(c.notRun)} not run (not applicable, or no evidence)`);
  return `${revealPlain(guard, 80)} on ${revealPlain(tool, 80)}: ${parts.join(', ')}`;
}

export function GuardMatrixTable({ matrix }: { matrix: GuardMatrix }) {
  if (matrix.rows.length === 0 || matrix.guards.length === 0) {
    return (
      <p className="empty" data-testid="guard-matrix-empty">
        No verified tool receipt carries guard evidence, so there is no matrix to show.
      </p>
    );
  }
  return (
    <>
      <p className="muted">
        Counted from the guard evidence of each verified tool receipt. Guards are in the order the kernel ran them; a denial stops the pipeline, so guards after
        the one that denied were <em>not reached</em>: they are counted as such, never as passes.
      </p>
      <div className="matrix-scroll">
        <table className="grid matrix" data-testid="guard-matrix">
          <thead>
            <tr>
              <th scope="col">tool</th>
              <th scope="col" className="num">
                receipts
              </th>
              {matrix.guards.map((g) => (
                <th key={g} scope="col" className="guard-col">
                  <code>
                    <SafeText text={g} max={40} expandable={false} />
                  </code>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.rows.map((r) => (
              <tr key={r.tool} data-tool={r.tool} data-receipts={r.receipts}>
                <th scope="row">
                  <Link href={r.href}>
                    <code>
                      <SafeText text={r.tool || '(no tool named)'} max={40} expandable={false} />
                    </code>
                  </Link>
                </th>
                <td className="num">
                  {n(r.receipts)}
                  {r.withoutEvidence > 0 && <div className="muted small">{n(r.withoutEvidence)} without evidence</div>}
                </td>
                {r.cells.map((c, i) => {
                  const guard = matrix.guards[i]!;
                  if (!c) {
                    return (
                      <td
                        key={guard}
                        className="cell never"
                        title={`${revealPlain(guard, 80)} never evaluated a ${revealPlain(r.tool, 80)} call`}
                        data-guard={guard}
                        data-never="true"
                      >
                        —
                      </td>
                    );
                  }
                  const share = c.fail / Math.max(1, c.pass + c.fail);
                  // A square-root scale: one failure in a hundred already shows, and a guard that always fails is unmistakable.
                  // At most 20 %, so the cell's text keeps 4.5:1 contrast on it in both colour schemes (app/globals.css).
                  const tint =
                    c.fail > 0
                      ? `color-mix(in srgb, #cf222e ${Math.round(8 + 12 * Math.sqrt(share))}%, transparent)`
                      : c.pass > 0
                        ? 'color-mix(in srgb, #1a7f37 10%, transparent)'
                        : undefined;
                  return (
                    <td
                      key={guard}
                      className="cell"
                      style={tint ? { background: tint } : undefined}
                      title={cellTitle(r.tool, guard, c)}
                      data-guard={guard}
                      data-pass={c.pass}
                      data-fail={c.fail}
                      data-not-reached={c.notReached}
                      data-not-run={c.notRun}
                    >
                      <span className="pass">✓ {n(c.pass)}</span>
                      {c.fail > 0 && (
                        <Link href={c.failHref!} className="fail" data-testid="matrix-fail-link">
                          ✗ {n(c.fail)}
                        </Link>
                      )}
                      {(c.notReached > 0 || c.notRun > 0) && (
                        <span className="skip">
                          {c.notReached > 0 && `${n(c.notReached)} not reached`}
                          {c.notReached > 0 && c.notRun > 0 && ', '}
                          {c.notRun > 0 && `${n(c.notRun)} not run`}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="legend matrix-legend">
        <span>
          <span className="pass">✓</span> passed
        </span>
        <span>
          <span className="fail">✗</span> failed (click to list those receipts)
        </span>
        <span>not reached: an earlier guard failed, so it never ran</span>
        <span>not run: the guard did not apply to the call, or the receipt carries no evidence</span>
        <span>— never evaluated for this tool</span>
      </p>
    </>
  );
}
