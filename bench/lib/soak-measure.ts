/**
 * What the soak probes share (bench/soak-probe.ts: the document service; bench/soak-browser-probe.ts:
 * the browser host with its page): the edit each file gets, and how memory and open file handles
 * are read after a full garbage collection.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { DocumentService } from '../../main/documents/document-service.ts';
import type { NodePath } from '../../shared/model/path.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';

const gc = (globalThis as { gc?: () => void }).gc;

/** Full garbage collections (the process runs with --expose-gc), so RSS shows what is kept. */
export function settle(): void {
  for (let i = 0; i < 3; i++) gc?.();
}

/** Open file handles of a process (Linux: /proc/PID/fd), or null where that cannot be read. */
export function openFds(pid: number | 'self' = 'self'): number | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** Resident memory of another process in bytes (Linux: VmRSS of /proc/PID/status), or null. */
export function rssOf(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface Edit {
  path: NodePath;
  value: number;
}

/**
 * The first number field (breadth first, at most 300 nodes) the service lets us set to the value
 * it already has: the document is marked changed, so every save encodes the edited node.
 */
export async function findEdit(svc: DocumentService, id: string, outline: OutlineNode): Promise<Edit | undefined> {
  const queue: OutlineNode[] = [outline];
  for (let seen = 0; queue.length > 0 && seen < 300; seen++) {
    const node = queue.shift()!;
    queue.push(...(node.children ?? []));
    const fields = svc.inspect(id, node.path)?.fields ?? [];
    for (const f of fields) {
      if (typeof f.value !== 'number' || f.readonly || !Number.isFinite(f.value)) continue;
      try {
        await svc.edit(id, { op: 'set', path: f.path, value: f.value });
        await svc.undo(id);
        return { path: f.path, value: f.value };
      } catch {
        // refused: try the next field
      }
    }
  }
  return undefined;
}

/** What a soak run reports (one JSON line): RSS and open handles after the warm-up and after the run. */
export interface SoakResult {
  cycles: number;
  warm: number;
  files: { file: string; format: string; edit: string }[];
  /** Files for which no edit was found (opened, saved untouched and closed instead). */
  noEdit: string[];
  rssAfterWarm: number;
  rssAfterRun: number;
  fdsAfterWarm: number | null;
  fdsAfterRun: number | null;
  ms: number;
}

/**
 * The edit each soak file gets, found by opening it once in `svc` (undefined where the file has no
 * editable number: it is saved untouched), and how the result line describes the files.
 */
export async function editsOf(svc: DocumentService, files: readonly string[]): Promise<{ edits: Map<string, Edit | undefined>; described: SoakResult['files'] }> {
  const edits = new Map<string, Edit | undefined>();
  const described: SoakResult['files'] = [];
  for (const f of files) {
    const snap = await svc.open(f);
    const edit = await findEdit(svc, snap.id, snap.outline);
    edits.set(f, edit);
    described.push({ file: basename(f), format: snap.format, edit: edit ? JSON.stringify(edit.path) : '-' });
    await svc.close(snap.id);
  }
  return { edits, described };
}
