// Export and import of the checkpoint memory (checkpoint-memory.ts): the file is
// the stored form (checkpoint-memory-json.ts, `{"version": 1, "logs": [...]}`),
// kept apart from the trust file, which must stay `receipt-audit --trust-file`'s
// format: pinned keys are a policy the user chose and CI reads; remembered
// checkpoints are observations this browser made.
//
// An imported file is attacker-supplied. Policy: it is read strictly (any entry
// that does not parse refuses the whole file), it may add logs this browser has
// not seen, and it never replaces a remembered checkpoint with another one: a
// file that disagrees with the memory about a key is refused, naming the key,
// and nothing changes (forget the key on /trust first to take the file's).
import type { CheckpointMemory, RememberedCheckpoint } from './checkpoint-memory';
import { checkpointMemoryToJson, parseCheckpointMemory } from './checkpoint-memory-json';

/** A checkpoint file larger than this is refused before it is parsed. */
export const MAX_CHECKPOINT_FILE_BYTES = 8 << 20;
/** Issues named in an error before "and N more". */
const SHOWN_ISSUES = 3;

export type MemoryImport = { ok: true; memory: Map<string, RememberedCheckpoint>; added: string[]; unchanged: string[] } | { ok: false; error: string };

/** The file the /trust page exports (the stored form, one line). */
export function checkpointFileText(memory: CheckpointMemory): string {
  return checkpointMemoryToJson(memory) + '\n';
}

/** `current` with the file's logs added, or why the file is refused (then nothing changes). */
export function importCheckpointMemory(current: CheckpointMemory, text: string): MemoryImport {
  if (text.length > MAX_CHECKPOINT_FILE_BYTES) return { ok: false, error: `larger than ${MAX_CHECKPOINT_FILE_BYTES >> 20} MiB; not a checkpoint file` };
  if (text.trim() === '') return { ok: false, error: 'empty; not a checkpoint file' };
  const { memory: read, issues } = parseCheckpointMemory(text);
  if (issues.length > 0) return { ok: false, error: listed(issues) };
  const conflicts = [...read.values()].filter((r) => {
    const had = current.get(r.key);
    return had !== undefined && had.sha256 !== r.sha256;
  });
  if (conflicts.length > 0) {
    const keys = conflicts.map(
      (r) => `${r.key} (the file has checkpoint ${r.checkpointSeq}, this browser remembers checkpoint ${current.get(r.key)!.checkpointSeq})`,
    );
    return { ok: false, error: `it disagrees with what this browser remembers for ${listed(keys)}; forget those keys first to take the file's` };
  }
  const memory = new Map(current);
  const added: string[] = [];
  const unchanged: string[] = [];
  for (const r of read.values()) {
    if (memory.has(r.key)) unchanged.push(r.key);
    else {
      memory.set(r.key, r);
      added.push(r.key);
    }
  }
  return { ok: true, memory, added, unchanged };
}

function listed(items: string[]): string {
  const shown = items.slice(0, SHOWN_ISSUES).join('; ');
  return items.length > SHOWN_ISSUES ? `${shown}; and ${items.length - SHOWN_ISSUES} more` : shown;
}
