// Runs one autocannon load in a process of its own, away from the bench's sampling and polling, and ends
// it when told to: its result then covers exactly the time it ran. (autocannon's own `workers` mode never
// answers once stopped early, and inside a worker thread it answers encoded histograms.) The options
// come over IPC, not argv, so that the bearer token is not on a command line. Plain JavaScript, so that
// it starts without the TypeScript loader.
import autocannon from 'autocannon';

process.once('message', (options) => {
  const run = autocannon(options);
  process.once('message', () => run.stop());
  run.then(
    (result) => process.send({ result }, () => process.exit(0)),
    (error) => process.send({ error: String(error) }, () => process.exit(1)),
  );
});
