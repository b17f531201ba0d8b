// Where the global setup leaves the server's pid and data folder for the teardown. Setup and teardown
// run in the one Playwright runner process, so its pid keeps two runs in one checkout apart.
import path from 'node:path';

export const STATE_FILE = path.resolve(`test-results/.e2e-server-${process.pid}.json`);
