'use client';
// Runs lib/selftest's suites in the browser and shows "N of M" per source and
// engine. Presentational apart from the one fetch of the vector files.
import { useEffect, useState } from 'react';
import { webCryptoEd25519Support } from '../../lib/crypto/ed25519';
import { type Ed25519VectorFiles, type SourceOutcome, describeEd25519Result, parseEd25519Vectors, runEd25519Suite } from '../../lib/selftest/ed25519-vectors';
import { type ChioSuiteOutcome, runChioReceiptSuite } from '../../lib/selftest/chio-vectors';

interface Outcome {
  webCrypto: string;
  engines: { engine: 'webcrypto' | 'noble'; bySource: SourceOutcome[]; ms: number }[];
  agreement: { total: number; agree: number; differences: string[] };
  chio: ChioSuiteOutcome[];
}

async function runAll(): Promise<Outcome> {
  const res = await fetch('/selftest/vectors');
  if (!res.ok) throw new Error(`could not load the vectors (HTTP ${res.status})`);
  const files = (await res.json()) as Ed25519VectorFiles & { genA: string; genB: string };
  const vectors = parseEd25519Vectors(files);
  const support = await webCryptoEd25519Support();
  const engines: Outcome['engines'] = [];
  const results: Record<string, string[]> = {};
  for (const engine of support === 'unavailable' ? (['noble'] as const) : (['webcrypto', 'noble'] as const)) {
    const t0 = performance.now();
    const run = await runEd25519Suite(vectors, engine);
    engines.push({ engine, bySource: run.bySource, ms: Math.round(performance.now() - t0) });
    results[engine] = run.results.map(describeEd25519Result);
  }
  const differences: string[] = [];
  if (results.webcrypto && results.noble) {
    vectors.forEach((v, i) => {
      if (results.webcrypto![i] !== results.noble![i])
        differences.push(`${v.source} ${v.label}: webcrypto ${results.webcrypto![i]}, noble ${results.noble![i]}`);
    });
  }
  const chio = [await runChioReceiptSuite(files.genA, 'A'), await runChioReceiptSuite(files.genB, 'B')];
  return { webCrypto: support, engines, agreement: { total: vectors.length, agree: vectors.length - differences.length, differences }, chio };
}

export function EngineSelfTest() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    runAll().then(
      (o) => live && setOutcome(o),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);

  if (error)
    return (
      <p role="alert" data-testid="selftest" data-done="true" data-all-match="false">
        Self-test could not run: {error}
      </p>
    );
  if (!outcome)
    return (
      <p data-testid="selftest" data-done="false">
        Running the vectors in this browser…
      </p>
    );

  const allMatch =
    outcome.engines.every((e) => e.bySource.every((s) => s.failures.length === 0)) &&
    outcome.agreement.differences.length === 0 &&
    outcome.chio.every((c) => c.failures.length === 0);
  const sources = outcome.engines[0]!.bySource.map((s) => s.source);
  return (
    <section data-testid="selftest" data-done="true" data-all-match={String(allMatch)} data-webcrypto={outcome.webCrypto}>
      <p>
        <strong>{allMatch ? 'This browser agrees with every vector.' : 'This browser disagrees with some vectors — see below.'}</strong> WebCrypto Ed25519:{' '}
        {outcome.webCrypto}.
      </p>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Ed25519 vectors</th>
            {outcome.engines.map((e) => (
              <th scope="col" key={e.engine}>
                {e.engine} ({e.ms} ms)
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => (
            <tr key={source}>
              <th scope="row">{source}</th>
              {outcome.engines.map((e) => {
                const s = e.bySource.find((x) => x.source === source)!;
                return (
                  <td key={e.engine} data-testid={`selftest-${e.engine}-${source}`} className={s.failures.length ? 'bad' : 'good'}>
                    {s.matched} of {s.total}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {outcome.engines.length > 1 && (
        <p data-testid="selftest-agreement">
          Engines agree on {outcome.agreement.agree} of {outcome.agreement.total} vectors (verdict and reason).
        </p>
      )}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Chio receipt vectors</th>
            <th scope="col">matched</th>
          </tr>
        </thead>
        <tbody>
          {outcome.chio.map((c) => (
            <tr key={c.generation}>
              <th scope="row">Gen {c.generation}</th>
              <td data-testid={`selftest-chio-${c.generation}`} className={c.failures.length ? 'bad' : 'good'}>
                {c.matched} of {c.total}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!allMatch && (
        <ul data-testid="selftest-failures">
          {[
            ...outcome.engines.flatMap((e) => e.bySource.flatMap((s) => s.failures.map((f) => `${e.engine} ${s.source} ${f}`))),
            ...outcome.agreement.differences,
            ...outcome.chio.flatMap((c) => c.failures),
          ].map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
