// Sums vitest's JSON reports into CI's one line "N passed, M failed", where failed counts every
// way a run can fall short, not only failed tests: a test file that failed to load or whose hook
// failed (its tests then show as skipped while numFailedTests stays 0), a failed suite, a skipped,
// pending or todo test (nothing is skipped on purpose here: a skip is a test that did not run), a
// report that is missing or holds no test, and a run whose exit status was not 0 with nothing
// else counted (an unhandled error, a type error before vitest ran).
//
//   node .ci/tally.mjs REPORT.json[:STATUS] ...
import * as fs from 'node:fs';

let passed = 0;
let failed = 0;
const why = [];
for (const arg of process.argv.slice(2)) {
  const m = /^(.*?)(?::(\d+))?$/.exec(arg);
  const file = m[1];
  const status = m[2] === undefined ? 0 : Number(m[2]);
  if (!fs.existsSync(file)) {
    failed++;
    why.push(`${file}: no report (exit status ${status})`);
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const brokenFiles = (r.testResults ?? []).filter((t) => t.status === 'failed' && t.assertionResults.every((a) => a.status !== 'failed'));
  // (A failed test also fails its suites and file: suites are counted only when nothing else is.)
  const counts = {
    'failed tests': r.numFailedTests,
    'skipped or pending tests': r.numPendingTests,
    'todo tests': r.numTodoTests,
    'test files failed outside any test': brokenFiles.length,
  };
  let here = 0;
  for (const [what, n] of Object.entries(counts)) {
    if (n > 0) why.push(`${file}: ${n} ${what}`);
    here += n ?? 0;
  }
  for (const t of brokenFiles) why.push(`  ${t.name}: ${t.message.split('\n')[0] || 'failed'}`);
  if (r.numFailedTestSuites > 0 && here === 0) {
    here++;
    why.push(`${file}: ${r.numFailedTestSuites} failed suites`);
  }
  if (r.numTotalTests === 0) {
    here++;
    why.push(`${file}: no test ran`);
  }
  if (status !== 0 && here === 0) {
    here++;
    why.push(`${file}: exit status ${status} with no failure counted (an unhandled error?)`);
  }
  passed += r.numPassedTests;
  failed += here;
}
for (const w of why) console.error(w);
console.log(`${passed} passed, ${failed} failed`);
if (failed > 0 || passed === 0) process.exit(1);
