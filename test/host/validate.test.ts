import { describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../shared/ipc/contract.ts';
import { isInvokeChannel, requestSchemas, validateRequest } from '../../main/ipc/validate.ts';
import { parseServeArgs } from '../../main/host/serve.ts';

describe('request validation', () => {
  it('has a schema for every channel of the contract, and no others', () => {
    expect(Object.keys(requestSchemas).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(isInvokeChannel('doc:open')).toBe(true);
    expect(isInvokeChannel('__proto__')).toBe(false);
    expect(isInvokeChannel('constructor')).toBe(false);
  });

  it('accepts well-formed requests and keeps edit values as given', () => {
    const value = { nested: [1, 2], data: new Float32Array([1, 2]) };
    const r = validateRequest('doc:edit', { id: 'doc-1', command: { op: 'batch', commands: [{ op: 'set', path: ['a', 0], value }, { op: 'move', path: ['list'], from: 0, to: 2 }] } });
    expect(r.ok).toBe(true);
    const cmd = r.ok ? (r.value.command as { commands: { value?: unknown }[] }) : undefined;
    expect(cmd?.commands[0]?.value).toBe(value);
    expect(validateRequest('doc:list', undefined)).toEqual({ ok: true, value: undefined });
    expect(validateRequest('doc:list', null)).toEqual({ ok: true, value: undefined });
    expect(validateRequest('doc:importNode', { id: 'd', path: [], bytes: new Uint8Array(2) }).ok).toBe(true);
    expect(validateRequest('doc:save', { id: 'd', options: { overwriteChanged: true } }).ok).toBe(true);
  });

  const bad: [string, unknown, string][] = [
    ['doc:open', { path: 42 }, 'path'],
    ['doc:open', { path: '' }, 'path'],
    ['doc:open', {}, 'path'],
    ['doc:open', 'models/a.lod', 'request'],
    ['doc:open', { path: 'models/a.lod', scene: 'yes' }, 'scene'],
    ['doc:edit', { id: 'd', command: { op: 'explode', path: [] } }, 'command'],
    ['doc:edit', { id: 'd', command: { op: 'insert', path: ['a'], index: -1, value: 1 } }, 'command.index'],
    ['doc:edit', { id: 'd', command: { op: 'insert', path: ['a'], index: 0.5, value: 1 } }, 'command.index'],
    ['doc:edit', { id: 'd', command: { op: 'set', path: [{ evil: true }], value: 1 } }, 'command.path.0'],
    ['doc:edit', { id: 'd', command: { op: 'batch', commands: [{ op: 'remove' }] } }, 'command.commands.0.path'],
    ['doc:bytes', { id: 'd', start: -1, end: 4 }, 'start'],
    ['doc:importNode', { id: 'd', path: [], bytes: [1, 2, 3] }, 'bytes'],
    ['doc:screenshot', { id: 'd', png: 'iVBOR' }, 'png'],
    ['doc:save', { id: 'd', options: { overwriteChanged: 'yes' } }, 'options.overwriteChanged'],
    ['doc:close', { id: 'x'.repeat(500) }, 'id'],
    ['doc:list', { sneaky: 1 }, 'request'],
  ];
  for (const [channel, req, where] of bad) {
    it(`refuses ${channel} ${JSON.stringify(req, (_k, v: unknown) => (v instanceof Uint8Array ? 'bytes' : v)).slice(0, 70)}`, () => {
      const r = validateRequest(channel, req);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid');
        expect(r.error.message).toContain(`${channel} request: ${where}`);
      }
    });
  }

  it('refuses unknown channels', () => {
    expect(validateRequest('fs:delete', {})).toMatchObject({ ok: false, error: { code: 'invalid', message: 'Unknown channel "fs:delete"' } });
  });

  it('refuses paths deeper than any document', () => {
    expect(validateRequest('doc:inspect', { id: 'd', path: Array.from({ length: 300 }, () => 0) }).ok).toBe(false);
  });
});

describe('npm run serve arguments', () => {
  it('parses roots, port, config, flags and files', () => {
    expect(parseServeArgs(['--root', 'a', '--root=b', '--port', '8123', '--no-sample', '--config', 'cfg', 'x.lod'])).toEqual({
      roots: ['a', 'b'], port: 8123, files: ['x.lod'], anims: [], sample: false, configDir: 'cfg',
    });
    expect(parseServeArgs([])).toEqual({ roots: [], port: 0, files: [], anims: [], sample: true, configDir: undefined });
  });

  it('takes --anim ANIM (repeatable) for the model FILE', () => {
    expect(parseServeArgs(['w.model', '--anim', 'a.animation', '--anim=b.animation'])).toMatchObject({ files: ['w.model'], anims: ['a.animation', 'b.animation'] });
    expect(() => parseServeArgs(['--anim', 'a.animation'])).toThrow(/--anim needs a model FILE/);
    expect(() => parseServeArgs(['w.model', '--anim'])).toThrow(/--anim needs a value/);
  });

  it('refuses bad arguments with a usage line', () => {
    expect(() => parseServeArgs(['--root'])).toThrow(/--root needs a value\nusage:/);
    expect(() => parseServeArgs(['--port', 'http'])).toThrow(/bad port/);
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/bad port/);
    expect(() => parseServeArgs(['--bogus'])).toThrow(/unknown option --bogus/);
  });
});
