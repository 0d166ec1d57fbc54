'use client';
// This browser's memory of each log's last verified checkpoint (localStorage):
// when a session finishes, its verified checkpoints are compared with the
// memory (lib/trust/checkpoint-memory.ts), the memory advances where the load
// continues it, and the outcome is kept for the overview's banner. The /trust
// page lists what is remembered and can forget a key.
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ContinuityOutcome, type RememberedCheckpoint, compareWithMemory } from '../../lib/trust/checkpoint-memory';
import { checkpointMemoryToJson, parseCheckpointMemory } from '../../lib/trust/checkpoint-memory-json';
import { type MemoryImport, checkpointFileText, importCheckpointMemory } from '../../lib/trust/checkpoint-memory-import';
import type { VerifiedCheckpoint } from '../../lib/trust/verified-checkpoint';
import { type LogSource, describeSources } from '../../lib/workers/protocol';
import type { Session } from './use-log-session';

const STORAGE = 'receipt-audit.checkpoints.v1';

export interface Continuity {
  /** The load these outcomes are for (the session's own array, so a later load never shows them). */
  load: VerifiedCheckpoint[];
  outcomes: ContinuityOutcome[];
}

/** The memory as stored now (another tab may have advanced it), with what could not be read. */
export function readCheckpointMemory() {
  try {
    return parseCheckpointMemory(localStorage.getItem(STORAGE));
  } catch {
    return { memory: new Map<string, RememberedCheckpoint>(), issues: ['this browser does not allow reading localStorage'] };
  }
}

export function useCheckpointMemory(session: Session, sources: readonly LogSource[] | null) {
  const [remembered, setRemembered] = useState<RememberedCheckpoint[]>([]);
  const [issues, setIssues] = useState<string[]>([]);
  const [continuity, setContinuity] = useState<Continuity | null>(null);
  const compared = useRef<VerifiedCheckpoint[] | null>(null);

  const refresh = useCallback(() => {
    const { memory, issues: found } = readCheckpointMemory();
    setRemembered([...memory.values()]);
    setIssues(found);
  }, []);

  useEffect(() => {
    refresh();
    const onStorage = (e: StorageEvent) => e.key === STORAGE && refresh();
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [refresh]);

  // Once per finished load: compare with the memory as stored now (another tab may have advanced it).
  useEffect(() => {
    if (session.status !== 'done' || compared.current === session.verifiedCheckpoints) return;
    const load = session.verifiedCheckpoints;
    compared.current = load;
    const { memory, issues: found } = readCheckpointMemory();
    // Every key that signed something in this load: a remembered one without its checkpoints is a rollback (part 2 §12).
    const signers = session.report.keys.map((k) => k.key);
    const result = compareWithMemory(
      memory,
      load,
      { atMs: Date.now(), source: sources ? describeSources(sources, { files: 'names' }) : session.label },
      signers,
    );
    const text = checkpointMemoryToJson(result.memory);
    if (text !== checkpointMemoryToJson(memory)) {
      try {
        localStorage.setItem(STORAGE, text);
      } catch {
        found.push('the checkpoint memory could not be saved (localStorage is full or blocked)');
      }
    }
    setRemembered([...result.memory.values()]);
    setIssues(found);
    setContinuity({ load, outcomes: result.outcomes });
  }, [session, sources]);

  const forget = useCallback(
    (key: string) => {
      const { memory } = readCheckpointMemory();
      memory.delete(key);
      localStorage.setItem(STORAGE, checkpointMemoryToJson(memory));
      refresh();
    },
    [refresh],
  );

  /** Adds a checkpoint file's logs (checkpoint-memory-import.ts); a refused file changes nothing. */
  const importText = useCallback(
    (text: string): MemoryImport => {
      const result = importCheckpointMemory(readCheckpointMemory().memory, text);
      if (result.ok && result.added.length > 0) {
        try {
          localStorage.setItem(STORAGE, checkpointMemoryToJson(result.memory));
        } catch {
          return { ok: false, error: 'the checkpoint memory could not be saved (localStorage is full or blocked)' };
        }
      }
      refresh();
      return result;
    },
    [refresh],
  );

  /** The export file: what is stored now (another tab may have advanced it). */
  const exportText = useCallback(() => checkpointFileText(readCheckpointMemory().memory), []);

  return { continuity, remembered, issues, forget, importText, exportText };
}
