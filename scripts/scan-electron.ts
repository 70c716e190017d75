/**
 * `npm run scan:electron`: runs the Electron security scanner (@doyensec/electronegativity) over
 * what makes up the desktop app's security: the main process and preload sources (main/electron,
 * main/preload) and the page's HTML with its Content-Security-Policy (renderer/index.html),
 * copied into one temporary folder so the scanner's whole-app checks (navigation limits,
 * permission handler, CSP) see them together. Fails on any finding above informational that is
 * not in ACCEPTED below (each acceptance is explained in docs/reliability.md, "Electron").
 *
 *   node scripts/scan-electron.ts [--json]
 *
 * The scanner's network look-ups (translations, Electron release list) are switched off: the
 * translations are the bundled English ones and the Electron version is the one installed here.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

interface Level {
  name: string;
  value: number;
}
interface Issue {
  id: string;
  file: string;
  location?: { line: number; column: number };
  severity: Level;
  confidence: Level;
  manualReview: boolean;
  description: string;
  shortenedURL?: string;
  sample?: string;
}
interface ScanResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}
type Runner = (options: Record<string, unknown>, forCli: boolean) => Promise<ScanResult>;

/**
 * Findings reviewed and accepted: check id, file (relative to the scanned folder), the scanner's
 * description and, for CSP findings, the exact policy reviewed, so a changed policy is a new
 * finding. Keep in step with docs/reliability.md, "Electron".
 */
const ACCEPTED: { id: string; file: string; description: string; sample?: string; why: string }[] = [
  {
    id: 'PRELOAD_JS_CHECK', file: 'main/electron/index.ts', description: 'Review the use of preload scripts',
    why: 'reviewed: the sandboxed preload exposes invoke/on for the contract channels only',
  },
  {
    id: 'CSP_GLOBAL_CHECK', file: 'main/electron/security.ts', description: 'Failed to parse CSP, it may not be valid.',
    why: 'the header policy is a constant from main/electron/csp.ts, evaluated by this script below',
  },
  {
    id: 'CSP_GLOBAL_CHECK', file: 'renderer/index.html', description: 'One or more CSP directives detected seems to be vulnerable',
    sample: "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'",
    why: "the header policy (main/electron/csp.ts) less frame-ancestors; the low note is that script-src 'self' trusts every file of the app's own origin (no JSONP or uploads there)",
  },
];

/** csp-evaluator severities that fail the scan (HIGH, SYNTAX, MEDIUM, HIGH_MAYBE). */
const CSP_FAILING_SEVERITY = 40;

interface CspFinding {
  severity: number;
  directive: string;
  value?: string;
  description: string;
}

/** Evaluates the Electron header policy, which the scanner cannot read from the code. */
async function evaluateHeaderPolicy(): Promise<{ failing: CspFinding[]; notes: CspFinding[] }> {
  const { CONTENT_SECURITY_POLICY } = await import('../main/electron/csp.ts');
  const csp = require('@doyensec/csp-evaluator') as {
    CspParser: new (s: string) => { csp: unknown };
    CspEvaluator: new (c: unknown, v: unknown) => { evaluate(): CspFinding[] };
    Version: { CSP3: unknown };
  };
  const findings = new csp.CspEvaluator(new csp.CspParser(CONTENT_SECURITY_POLICY).csp, csp.Version.CSP3).evaluate();
  return { failing: findings.filter((f) => f.severity <= CSP_FAILING_SEVERITY), notes: findings.filter((f) => f.severity > CSP_FAILING_SEVERITY) };
}

/** Where the scanner would fetch translations from the network, use its bundled English ones. */
function offlineTranslations(pkgDir: string): void {
  const i18n = require('i18n') as { configure(o: object): void; setLocale(l: string): void };
  const modulePath = require.resolve(join(pkgDir, 'dist', 'locales', 'i18n.js'));
  const init = async (): Promise<void> => {
    i18n.configure({ locales: ['en-US'], defaultLocale: 'en-US', directory: join(pkgDir, 'dist', 'locales'), updateFiles: false, objectNotation: true, retryInDefaultLocale: true, register: globalThis });
    i18n.setLocale('en-US');
  };
  const cached = new (require('node:module') as { Module: new (id: string) => NodeJS.Module }).Module(modulePath);
  cached.exports = init;
  cached.loaded = true;
  require.cache[modulePath] = cached;
}

async function main(): Promise<number> {
  const json = process.argv.includes('--json');
  const pkgDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  offlineTranslations(pkgDir);
  const run = require('@doyensec/electronegativity') as Runner;
  const electronVersion = (JSON.parse(await readFile(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;

  const stage = await mkdtemp(join(tmpdir(), 'lodsmith-scan-'));
  try {
    for (const part of ['main/electron', 'main/preload', 'renderer/index.html']) {
      await cp(join(root, part), join(stage, part), { recursive: true });
    }
    await writeFile(join(stage, 'package.json'), JSON.stringify({ name: 'lodsmith-scan', devDependencies: { electron: electronVersion } }));
    const result = await run({
      input: stage,
      customScan: [],
      // Asks the network for Electron releases; the version is pinned in package.json instead.
      excludeFromScan: ['availablesecurityfixesglobalcheck'],
      severitySet: 'informational',
      confidenceSet: 'tentative',
      isRelative: true,
      isVerbose: false,
      electronUpgrade: undefined,
      electronVersionOverride: electronVersion,
      parserPlugins: [],
    }, false);
    const findings = result.issues.filter((i) => i.severity.value > 0);
    const acceptance = (i: Issue) => ACCEPTED.find((a) => a.id === i.id && a.file === i.file && a.description === i.description && (a.sample === undefined || a.sample === i.sample));
    const accepted = findings.filter((i) => acceptance(i));
    const failing = findings.filter((i) => !accepted.includes(i));
    const hardErrors = result.errors.filter((e) => !e.tolerable);
    const header = await evaluateHeaderPolicy();
    if (json) {
      console.log(JSON.stringify({ electronVersion, checks: result.globalChecks + result.atomicChecks, issues: result.issues, errors: result.errors, headerPolicy: header }, null, 2));
    }
    // With --json, stdout carries only the JSON.
    const say = json ? console.error : console.log;
    const where = (i: Issue): string => `${i.file}${i.location ? `:${i.location.line}` : ''}`;
    for (const i of failing) console.error(`FINDING ${i.id} ${i.severity.name}/${i.confidence.name} ${where(i)}: ${i.description}${i.sample ? ` [${i.sample}]` : ''}`);
    for (const i of accepted) say(`accepted ${i.id} ${where(i)}: ${acceptance(i)?.why}`);
    for (const e of hardErrors) console.error(`PARSE ERROR ${e.file}: ${e.message}`);
    for (const f of header.failing) console.error(`FINDING header CSP (main/electron/csp.ts) ${f.directive} ${f.value ?? ''}: ${f.description}`);
    for (const f of header.notes) say(`note header CSP ${f.directive} ${f.value ?? ''}: ${f.description}`);
    const info = result.issues.length - findings.length;
    say(`scan:electron: Electron ${electronVersion}, ${result.globalChecks + result.atomicChecks} checks, ${failing.length + header.failing.length} findings above informational, ${accepted.length} accepted, ${info} informational, ${hardErrors.length} files not parsed`);
    return failing.length > 0 || hardErrors.length > 0 || header.failing.length > 0 ? 1 : 0;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

process.exitCode = await main();
