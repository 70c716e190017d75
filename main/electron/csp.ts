/**
 * The renderer's Content-Security-Policy (sent as a header on every response; the page's own meta
 * tag says the same for file:// loads). In a module of its own, without Electron, so the
 * Electron security scan (scripts/scan-electron.ts) can evaluate the policy itself.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "connect-src 'self'", "worker-src 'self' blob:", "font-src 'self' data:", "object-src 'none'", "base-uri 'none'",
  "form-action 'none'", "frame-ancestors 'none'",
].join('; ');
