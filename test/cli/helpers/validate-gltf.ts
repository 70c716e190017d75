/** Runs the Khronos glTF validator and returns its errors as readable lines (empty when valid). */
import validator from 'gltf-validator';

export async function gltfErrors(bytes: Uint8Array): Promise<{ errors: string[]; report: Awaited<ReturnType<typeof validator.validateBytes>> }> {
  const report = await validator.validateBytes(bytes, { maxIssues: 50 });
  const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
  expectCount(report.issues.numErrors, errors.length);
  return { errors, report };
}

function expectCount(num: number, listed: number): void {
  // maxIssues can hide errors from the list; numErrors still counts them all.
  if (num > 0 && listed === 0) throw new Error(`validator reports ${num} errors but lists none`);
}
