'use client';
// This browser's memory of each log's last verified checkpoint (use-checkpoint-memory.ts), for the
// overview's continuity banner, the fork gate and the /trust page. Inside LogProvider: it compares
// each finished load of the open log with the memory.
import { type ReactNode, createContext, useContext, useMemo } from 'react';
import type { RememberedCheckpoint } from '../../lib/trust/checkpoint-memory';
import type { MemoryImport } from '../../lib/trust/checkpoint-memory-import';
import { useLogOpener, useSession } from './log-contexts';
import { type Continuity, useCheckpointMemory } from './use-checkpoint-memory';

export interface CheckpointsValue {
  /** How the last finished load compares with the checkpoints this browser remembers. */
  continuity: Continuity | null;
  remembered: RememberedCheckpoint[];
  /** Stored entries that could not be read (and are ignored). */
  memoryIssues: string[];
  forgetCheckpoint: (key: string) => void;
  /** Adds the logs of a checkpoint file to the memory, or says why the file is refused (nothing changes then). */
  importCheckpoints: (text: string) => MemoryImport;
  /** The remembered checkpoints as a file. */
  exportCheckpoints: () => string;
}

const CheckpointsContext = createContext<CheckpointsValue | null>(null);

export function CheckpointMemoryProvider({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const { sources } = useLogOpener();
  const memory = useCheckpointMemory(session, sources);
  const value = useMemo(
    () => ({
      continuity: memory.continuity,
      remembered: memory.remembered,
      memoryIssues: memory.issues,
      forgetCheckpoint: memory.forget,
      importCheckpoints: memory.importText,
      exportCheckpoints: memory.exportText,
    }),
    [memory.continuity, memory.remembered, memory.issues, memory.forget, memory.importText, memory.exportText],
  );
  return <CheckpointsContext.Provider value={value}>{children}</CheckpointsContext.Provider>;
}

export function useCheckpoints(): CheckpointsValue {
  const v = useContext(CheckpointsContext);
  if (!v) throw new Error('useCheckpoints outside CheckpointMemoryProvider');
  return v;
}
