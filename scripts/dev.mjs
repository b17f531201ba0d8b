#!/usr/bin/env node
// `npm run dev`: the reference server on :8080 (the API, the sign-in page, storage) and Vite with hot
// reload on :5173, which proxies those paths to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--watch-path=server', 'server/start.mjs'], {
    stdio: 'inherit',
    env: { PORT: '8080', ...process.env },
  }),
  spawn('npx', ['vite', '--port', '5173', '--strictPort'], { stdio: 'inherit', env: process.env }),
];

console.log('Paraph dev: open http://localhost:5173/app/ (add ?inspect to watch the machines)');

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
