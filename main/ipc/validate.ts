/**
 * Every request is checked on arrival, whichever way it came (Electron IPC or the browser host's
 * HTTP API): the renderer is treated as untrusted input, so a malformed request becomes an
 * 'invalid' AppError and never reaches the document service.
 */
import { z } from 'zod';
import type { AppError, InvokeChannel, Req } from '../../shared/ipc/contract.ts';
import type { EditCommand } from '../../shared/model/commands.ts';
import type { EditorQuery } from '../../shared/model/editor-query.ts';
import { MAX_PAGE_ROWS } from '../../shared/model/array-view.ts';

/** Generous but finite: no legitimate path or id comes near these. */
const MAX_TEXT = 4096;
const MAX_PATH_SEGMENTS = 256;
const MAX_BATCH = 100_000;

const text = z.string().max(MAX_TEXT);
const nonEmpty = text.min(1);
const docId = z.string().min(1).max(128);
const nodePath = z.array(z.union([z.string().max(MAX_TEXT), z.number().int().nonnegative()])).max(MAX_PATH_SEGMENTS).readonly();
const bytes = z.instanceof(Uint8Array);
/** The editor's Memory limit in bytes: 1 MiB to 64 GiB. */
const memoryLimit = z.number().int().min(1 << 20).max(64 * 1024 ** 3);
const label = text.optional();
const gesture = z.string().max(128).optional();

/** Values inside edits are arbitrary JSON-like data (plus typed arrays); the codec's checkEdit judges them. */
const editCommand: z.ZodType<EditCommand> = z.lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('set'), path: nodePath, value: z.unknown(), label, gesture }),
    z.object({ op: z.literal('insert'), path: nodePath, index: z.number().int().nonnegative(), value: z.unknown(), label, gesture }),
    z.object({ op: z.literal('remove'), path: nodePath, label, gesture }),
    z.object({ op: z.literal('move'), path: nodePath, from: z.number().int().nonnegative(), to: z.number().int().nonnegative(), label, gesture }),
    z.object({ op: z.literal('batch'), commands: z.array(editCommand).max(MAX_BATCH), label, gesture }),
  ]),
) as z.ZodType<EditCommand>;

const finite = z.number().finite();
const row = z.number().int().nonnegative();
/** The editors' questions (editor-query.ts); each shape checked here, the codec judges the values. */
const editorQuery: z.ZodType<EditorQuery> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('array'), path: nodePath, start: row, count: z.number().int().min(0).max(MAX_PAGE_ROWS) }),
  z.object({ kind: z.literal('highlight'), path: nodePath, row: row.optional() }),
  z.object({ kind: z.literal('p3d-lods') }),
  z.object({ kind: z.literal('p3d-groups'), lod: row }),
  z.object({ kind: z.literal('p3d-proxies'), lod: row }),
  z.object({ kind: z.literal('p3d-selections'), lod: row }),
  z.object({ kind: z.literal('p3d-group-highlight'), lod: row, group: text }),
  z.object({ kind: z.literal('p3d-group-path'), lod: row, group: text, field: z.enum(['texture', 'material']), value: text }),
  z.object({
    kind: z.literal('p3d-proxy-edit'), lod: row, proxy: row, path: text.optional(),
    position: z.array(finite).length(3).optional(), axes: z.array(finite).length(9).optional(),
  }),
  z.object({ kind: z.literal('p3d-proxy-add'), lod: row, path: text.optional() }),
  z.object({ kind: z.literal('p3d-proxy-delete'), lod: row, proxy: row }),
  z.object({ kind: z.literal('p3d-proxy-lod'), lod: row, proxy: row, to: row }),
  z.object({ kind: z.literal('repath'), from: text.refine((s) => s.replace(/[\\/]/g, '') !== '', 'a folder prefix'), to: z.string().max(1024) }),
]) as z.ZodType<EditorQuery>;

const none = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);
const byId = z.object({ id: docId });

/** One schema per invoke channel: the request as main accepts it. */
export const requestSchemas = {
  'app:info': none,
  'app:recent': none,
  'settings:get': none,
  'settings:set': z.object({ textureRoots: z.array(nonEmpty).max(32) }),
  'fs:list': z.object({ dir: text }),
  'dialog:open': none,
  'dialog:save': z.object({ suggested: text }),
  // The decoding memory setting: 1 MiB to 64 GiB.
  'doc:open': z.object({ path: nonEmpty, maxMemory: memoryLimit.optional(), scene: z.boolean().optional() }),
  'doc:openSample': none,
  'doc:list': none,
  'doc:close': byId,
  'doc:inspect': z.object({ id: docId, path: nodePath }),
  'doc:scene': z.object({ id: docId, lod: text.optional() }),
  'doc:sourcePose': z.object({ id: docId, lod: text.optional(), values: z.record(z.string().max(256), z.number().finite()).optional() }),
  'doc:sourceConfig': z.object({ id: docId, path: nonEmpty.nullable() }),
  'doc:query': z.object({ id: docId, query: editorQuery }),
  'doc:bytes': z.object({ id: docId, start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }),
  'doc:edit': z.object({ id: docId, command: editCommand }),
  'doc:create': z.object({ id: docId, parent: nodePath, kind: nonEmpty }),
  'doc:undo': byId,
  'doc:redo': byId,
  'doc:goto': z.object({ id: docId, at: z.number().int().nonnegative() }),
  'doc:openBytes': z.object({ name: nonEmpty, bytes }),
  'doc:find': z.object({ id: docId, query: z.string().min(1).max(256) }),
  'doc:save': z.object({ id: docId, options: z.object({ overwriteChanged: z.boolean().optional() }).optional() }),
  'doc:saveAs': z.object({ id: docId, path: nonEmpty, overwrite: z.boolean().optional() }),
  'doc:revert': byId,
  'doc:exportNode': z.object({ id: docId, path: nodePath }),
  'doc:importNode': z.object({ id: docId, path: nodePath, bytes }),
  'doc:screenshot': z.object({ id: docId, png: bytes, name: text.optional() }),
  'doc:texture': z.object({ id: docId, name: nonEmpty }),
  'doc:exportGltf': z.object({ id: docId, path: nonEmpty, lod: text.optional(), up: z.enum(['y', 'z']).optional(), overwrite: z.boolean().optional() }),
  'doc:attachAnimation': z.object({ id: docId, path: nonEmpty }),
  'doc:attachAnimationBytes': z.object({ id: docId, name: nonEmpty, bytes }),
  'doc:detachAnimation': z.object({ id: docId, index: z.number().int().nonnegative() }),
  'doc:animationCandidates': byId,
  'texture:read': z.object({ path: nonEmpty, mip: z.number().int().min(0).max(31).optional(), maxMemory: memoryLimit.optional() }),
  'texture:replace': z.object({ path: nonEmpty, png: bytes, format: z.enum(['dxt1', 'dxt5', 'argb8888']).optional(), maxMemory: memoryLimit.optional() }),
  'texture:undo': z.object({ path: nonEmpty, maxMemory: memoryLimit.optional() }),
  'doc:newFromGltf': z.object({ bytes, name: nonEmpty, path: nonEmpty, version: text.optional(), anim: text.optional() }),
  'doc:replaceFromGltf': z.object({ id: docId, path: nodePath, bytes, name: nonEmpty }),
} satisfies { [C in InvokeChannel]: z.ZodType };

export function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && Object.hasOwn(requestSchemas, channel);
}

/**
 * Parses a request for `channel`. Returns the typed request, or the AppError to send back
 * (unknown channel, wrong shape), naming the first offending field.
 */
export function validateRequest<C extends InvokeChannel>(channel: C, req: unknown): { ok: true; value: Req<C> } | { ok: false; error: AppError };
export function validateRequest(channel: string, req: unknown): { ok: true; value: unknown } | { ok: false; error: AppError };
export function validateRequest(channel: string, req: unknown): { ok: true; value: unknown } | { ok: false; error: AppError } {
  if (!isInvokeChannel(channel)) return { ok: false, error: { code: 'invalid', message: `Unknown channel ${JSON.stringify(String(channel).slice(0, 64))}` } };
  const r = requestSchemas[channel].safeParse(req);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'request';
  return { ok: false, error: { code: 'invalid', message: `Invalid ${channel} request: ${where}: ${issue?.message ?? 'malformed'}` } };
}
