// Prints one plain closing line, "tests: N passed, N failed[, N skipped]", after jest's own summary.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const suffix = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${suffix}\n`);
  }
}
module.exports = SummaryReporter;
