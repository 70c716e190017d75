/**
 * The renderer page's own Content-Security-Policy (the meta tag in renderer/index.html), which is
 * what protects the desktop app where its file:// page may not get the header: it must be the
 * header policy (main/electron/csp.ts) less `frame-ancestors` (a meta tag cannot set that), allow
 * no network (`connect-src 'self'` only: the page talks to main over IPC) and close forms, base
 * URLs and plugins.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../main/electron/csp.ts';
import { repoRoot } from '../e2e/fixtures/paths.ts';

function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

function metaPolicy(): string {
  const html = readFileSync(join(repoRoot, 'renderer', 'index.html'), 'utf8');
  const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
  if (!m) throw new Error('renderer/index.html has no CSP meta tag');
  return m[1]!;
}

describe('renderer CSP meta tag', () => {
  it("is the header policy less frame-ancestors", () => {
    const header = directives(CONTENT_SECURITY_POLICY);
    header.delete('frame-ancestors');
    expect(directives(metaPolicy())).toEqual(header);
  });

  it("closes forms, base URLs and plugins, and allows no network beyond 'self'", () => {
    for (const policy of [metaPolicy(), CONTENT_SECURITY_POLICY]) {
      const d = directives(policy);
      expect(d.get('form-action')).toEqual(["'none'"]);
      expect(d.get('base-uri')).toEqual(["'none'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(d.get('connect-src')).toEqual(["'self'"]);
      expect(d.get('script-src')).toEqual(["'self'"]);
      expect(d.get('default-src')).toEqual(["'self'"]);
      expect(policy).not.toMatch(/unsafe-eval|\bws:|\bhttps?:|\*/);
    }
  });
});
