/**
 * Kills processes in the middle of saving and checks that nothing is lost (see
 * scripts/save-crash/trials.ts for what is checked).
 *
 *   node scripts/save-crash-trials.ts [--trials N] [--seed S] [--lanes L] [--no-per-step] [--json]
 *
 * Prints one summary line (or the summary as JSON) and every failure; exits 1 on any failure.
 */
import { runSaveCrashTrials, summaryLine } from './save-crash/trials.ts';

const args = process.argv.slice(2);
const num = (name: string, dflt: number): number => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  if (!Number.isInteger(v) || v < 0) {
    console.error(`${name} needs a whole number`);
    process.exit(2);
  }
  return v;
};

const summary = await runSaveCrashTrials({
  trials: num('--trials', 200),
  seed: num('--seed', 1),
  lanes: num('--lanes', 2),
  perStep: !args.includes('--no-per-step'),
});
if (args.includes('--json')) console.log(JSON.stringify(summary, null, 2));
else console.log(summaryLine(summary));
for (const f of summary.failures) console.error(`FAIL ${f}`);
process.exitCode = summary.failures.length > 0 ? 1 : 0;
