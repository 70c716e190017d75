/**
 * The editor's open (doc:open with scene: true, DocumentService.openWithScene) answers before the
 * document's validation and modding rules run; they arrive right after as `doc:problems` for that
 * revision, the same list a plain open carries. Nothing is lost: a plain open, an edit, a save
 * and doc:list carry their problems as before, and a document closed or edited before the event
 * gets none for the stale revision.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { DocumentRules } from '../../main/documents/doc-rules.ts';
import type { EventMap } from '../../shared/ipc/contract.ts';
import { buildLod, buildMlod, cube } from '../../scripts/fixtures/mlod.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { formatById } from '../../shared/formats/index.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-problems-later-')));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

type ProblemsEvent = EventMap['doc:problems'];

function model(texture: string): Uint8Array {
  const c = cube(1);
  return encodeMlod(buildMlod([buildLod({ resolution: 1, ...c, uvs: c.faces.map(() => [0, 0, 1, 0, 1, 1, 0, 1]), textures: c.faces.map(() => texture) })]));
}

/** A service whose `doc:problems` events are collected, and whose deferred work runs when `flush` says. */
function service(name: string) {
  const events: ProblemsEvent[] = [];
  const later: (() => void)[] = [];
  const svc = new DocumentService({
    configDir: join(dir, name), prefetchTextures: true,
    emit: (channel, payload) => {
      if (channel === 'doc:problems') events.push(payload as ProblemsEvent);
    },
    afterAnswer: (task) => later.push(task),
  });
  const flush = () => {
    for (const t of later.splice(0)) t();
  };
  return { svc, events, flush, later };
}

describe('the editor open answers before the problems are found', () => {
  it('answers without running the rules or the validation; doc:problems brings the plain open\'s list for that revision', async () => {
    const file = join(dir, 'box.p3d');
    await writeFile(file, model('P:/mymod/box_co.paa'));
    const rules = vi.spyOn(DocumentRules.prototype, 'ruleProblems');
    const validate = vi.spyOn(formatById('p3d-mlod'), 'validate');
    const { svc, events, flush, later } = service('a');

    const opened = await svc.openWithScene(file);
    expect(opened.scene?.meshes.length).toBeGreaterThan(0);
    expect(opened.problemsPending).toBe(true);
    expect(opened.problems).toEqual([]);
    // The answer is out before the costly checks ran: they wait for the host's signal.
    expect(rules).not.toHaveBeenCalled();
    expect(validate).not.toHaveBeenCalled();
    expect(events).toEqual([]);
    expect(later).toHaveLength(1);

    flush();
    expect(rules).toHaveBeenCalledTimes(1);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev.id).toBe(opened.id);
    expect(ev.revision).toBe(opened.revision);
    expect(ev.problems.some((p) => p.severity === 'error' && p.message.endsWith('[path-absolute]'))).toBe(true);

    // The very list a plain open of the same file carries (it runs everything before answering).
    const plain = service('b');
    const snap = await plain.svc.open(file);
    expect(snap.problemsPending).toBeUndefined();
    expect(ev.problems).toEqual(snap.problems);
    // Any later snapshot of the document has them itself.
    expect((await svc.getSnapshot(opened.id)).problems).toEqual(snap.problems);
    expect((await svc.list()).find((d) => d.id === opened.id)!.problems).toEqual(snap.problems);
  });

  it('with the default scheduling the event follows on the next turn of the event loop', async () => {
    const file = join(dir, 'box.p3d');
    await writeFile(file, model('P:/mymod/box_co.paa'));
    const events: ProblemsEvent[] = [];
    const svc = new DocumentService({ configDir: join(dir, 'c'), emit: (ch, p) => void (ch === 'doc:problems' && events.push(p as ProblemsEvent)) });
    const opened = await svc.openWithScene(file);
    expect(opened.problemsPending).toBe(true);
    expect(events).toEqual([]);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]!.id).toBe(opened.id);
    expect(events[0]!.problems.some((p) => p.message.endsWith('[path-absolute]'))).toBe(true);
  });

  it('sends nothing for a revision that has moved on or a document that was closed; an edit carries its own problems', async () => {
    const file = join(dir, 'box.p3d');
    await writeFile(file, model('P:/mymod/box_co.paa'));
    const { svc, events, flush } = service('a');
    const opened = await svc.openWithScene(file);
    const edited = await svc.edit(opened.id, { op: 'set', path: ['lods', 0, 'faces', 'textures', 0], value: 'mymod\\box_co.paa' });
    expect(edited.problemsPending).toBeUndefined();
    expect(edited.problems.some((p) => p.message.endsWith('[path-missing]'))).toBe(true);
    flush();
    expect(events).toEqual([]);

    const file2 = join(dir, 'two.p3d');
    await writeFile(file2, model('P:/mymod/box_co.paa'));
    const two = await svc.openWithScene(file2);
    await svc.close(two.id);
    flush();
    expect(events).toEqual([]);
  });

  it('a plain open (the CLI, tests, the host\'s own opens) still answers with every problem', async () => {
    const file = join(dir, 'box.p3d');
    await writeFile(file, model('P:/mymod/box_co.paa'));
    const { svc, events, later } = service('a');
    const snap = await svc.open(file);
    expect(snap.problemsPending).toBeUndefined();
    expect(snap.problems.some((p) => p.message.endsWith('[path-absolute]'))).toBe(true);
    expect(later).toEqual([]);
    expect(events).toEqual([]);
    // Opening it again in the editor gives the document already open, problems and all.
    const again = await svc.openWithScene(file);
    expect(again.id).toBe(snap.id);
    expect(again.problemsPending).toBeUndefined();
    expect(again.problems).toEqual(snap.problems);
  });
});
