// Test-only: the one knob for property-test sizes (issue 7, deliverable 2).
//
//   FUZZ_SCALE  multiplies every property's run count (default 1: the CI size; `npm run fuzz`
//               uses 50). Fractions are allowed (0.1 for a quick pass); every property runs at
//               least once.
//   FUZZ_SEED   fixes fast-check's seed. A failing property prints its seed and path in the
//               error ("seed: …, path: …"); rerun with FUZZ_SEED=<seed> to reproduce it.
//
// Hangs: every property gets a time budget. fast-check stops a property that runs past it and
// fails it with its seed (markInterruptAsFailure), instead of Vitest's bare timeout. Async
// properties also get a per-case timeout. A single synchronous case that never returns cannot
// be interrupted in-process; `npm test`'s own deadline (UNIT_DEADLINE_MIN) ends that run.
import type { Parameters } from 'fast-check';

function readScale(): number {
  const raw = process.env.FUZZ_SCALE;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`FUZZ_SCALE must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

function readSeed(): number | undefined {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return n;
}

export const FUZZ_SCALE = readScale();
export const FUZZ_SEED = readSeed();

/** `base` runs, scaled by FUZZ_SCALE (at least 1). */
export function fuzzRuns(base: number): number {
  return Math.max(1, Math.round(base * FUZZ_SCALE));
}

export interface FuzzOptions {
  /**
   * Time for the property at scale 1 (scaled like the runs). Past it the property stops and
   * fails with its seed. It guards against hangs and blow-ups, never measures speed: keep it
   * far above what the property takes on a loaded 2-core machine (the default is 2 minutes
   * for properties that take a few seconds).
   */
  budgetMs?: number;
  /** For async properties: one case longer than this fails (a hung promise). Keep it generous. */
  caseTimeoutMs?: number;
}

const DEFAULT_BUDGET_MS = 120_000;

/** fast-check parameters: scaled runs, FUZZ_SEED when set, and the time budget. */
export function fuzzParams<T>(base: number, options: FuzzOptions = {}): Parameters<T> {
  return {
    numRuns: fuzzRuns(base),
    ...(FUZZ_SEED !== undefined ? { seed: FUZZ_SEED } : {}),
    interruptAfterTimeLimit: scaledBudget(options.budgetMs),
    markInterruptAsFailure: true,
    ...(options.caseTimeoutMs !== undefined ? { timeout: options.caseTimeoutMs } : {}),
  };
}

/** The Vitest timeout for a test whose properties together have `budgetMs` (scaled), with room to report. */
export function fuzzTimeout(budgetMs: number = DEFAULT_BUDGET_MS): number {
  return scaledBudget(budgetMs) + 30_000;
}

function scaledBudget(budgetMs: number = DEFAULT_BUDGET_MS): number {
  return Math.round(budgetMs * Math.max(1, FUZZ_SCALE));
}
