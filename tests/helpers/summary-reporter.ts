import type { Reporter } from "vitest/reporters";
import type { RunnerTask, RunnerTestFile } from "vitest";

function collect(tasks: RunnerTask[], acc = { passed: 0, failed: 0, skipped: 0 }) {
  for (const t of tasks) {
    if (t.type === "suite") collect(t.tasks, acc);
    else if (t.result?.state === "pass") acc.passed++;
    else if (t.result?.state === "fail") acc.failed++;
    else acc.skipped++;
  }
  return acc;
}

/** Prints the plain closing line CI reads: "Tests: N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []) {
    const c = collect(files);
    const failedFiles = files.filter((f) => f.result?.state === "fail" && !f.tasks.length).length;
    console.log(`\nTests: ${c.passed} passed, ${c.failed + failedFiles + errors.length} failed, ${c.skipped} skipped`);
  }
}
