// bench/upload: a 50 MB PDF through the presigned POST to the real server (a child process), while the
// server's RSS is sampled every 20 ms from /proc. The storage endpoint streams to disk, so its growth must
// stay within 30 MB whatever the file size. The reference in the same run is fs.copyFile of the same file.
// POST /api/documents is measured separately and only reported: it re-reads the upload to check it.
import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { storageFormFields, type UploadAttributes } from '../tests/api/storage-form.ts';
import { makeLargePdf } from '../tests/fixtures/pdfs.ts';
import { signInForApi } from './browser.ts';
import { mib, ms, ratio, round, type Bench, type BenchResult } from './report.ts';
import { createBenchUser, makeDataDir, startServer } from './server-process.ts';

const FILE_BYTES = 50 * 1024 * 1024;
const WARM_UP_BYTES = 256 * 1024;
const GROWTH_BUDGET_BYTES = 30 * 1024 * 1024;
const SAMPLE_MS = 20;
const SETTLE_MS = 1_000;
const COPY_RUNS = 5;
const USER = {
  email: 'uploader@example.test',
  fullName: 'Uma Uploader',
  password: 'bench-password-not-secret',
};
const MIB = 1024 * 1024;

type Sample = { at: number; rss: number };

function readRss(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

// The sampler runs in a worker thread of its own, so piping the file through this thread's event loop
// cannot delay a sample. Times are absolute (timeOrigin + now) so both threads share one clock.
const SAMPLER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const flag = new Int32Array(workerData.control);
const samples = [];
while (Atomics.load(flag, 0) === 0) {
  try {
    const match = /^VmRSS:\\s+(\\d+)\\s+kB/m.exec(readFileSync('/proc/' + workerData.pid + '/status', 'latin1'));
    if (match) samples.push({ at: performance.timeOrigin + performance.now(), rss: Number(match[1]) * 1024 });
  } catch {}
  Atomics.wait(flag, 0, 0, workerData.intervalMs);
}
parentPort.postMessage(samples);
`;

function clock(): number {
  return performance.timeOrigin + performance.now();
}

type Sampler = {
  // Reads the RSS now, from this thread, and keeps it with the worker's samples.
  sampleNow(): number;
  stop(): Promise<Sample[]>;
};

function startSampler(pid: number): Sampler {
  const control = new SharedArrayBuffer(4);
  const worker = new Worker(SAMPLER_SOURCE, {
    eval: true,
    workerData: { pid, control, intervalMs: SAMPLE_MS },
  });
  const done = new Promise<Sample[]>((resolve, reject) => {
    worker.once('message', (samples: Sample[]) => resolve(samples));
    worker.once('error', reject);
  });
  const own: Sample[] = [];
  return {
    sampleNow() {
      const rss = readRss(pid);
      if (rss === null) throw new Error(`the server (pid ${pid}) is gone`);
      own.push({ at: clock(), rss });
      return rss;
    },
    async stop() {
      const flag = new Int32Array(control);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      const samples = await done;
      await worker.terminate();
      return [...samples, ...own].sort((a, b) => a.at - b.at);
    },
  };
}

function during(
  samples: Sample[],
  from: number,
  to: number,
): { peak: number; count: number; maxGapMs: number } {
  const inside = samples.filter((sample) => sample.at >= from && sample.at <= to);
  let maxGapMs = 0;
  for (let index = 1; index < inside.length; index += 1) {
    maxGapMs = Math.max(maxGapMs, (inside[index]?.at ?? 0) - (inside[index - 1]?.at ?? 0));
  }
  return { peak: Math.max(0, ...inside.map((sample) => sample.rss)), count: inside.length, maxGapMs };
}

// The form S3 expects, built by hand around a file stream: fields first, the file last, and a
// Content-Length computed up front, so neither side needs the file in memory.
async function warmUp(origin: string, auth: Record<string, string>, filePath: string): Promise<void> {
  const response = await fetch(`${origin}/api/upload_requests`, { method: 'POST', headers: auth });
  if (response.status !== 201)
    throw new Error(`warm-up: POST /api/upload_requests answered ${response.status}`);
  const upload = ((await response.json()) as { data: { attributes: UploadAttributes } }).data.attributes;
  const stored = await postForm(new URL(upload.url, origin), storageFormFields(upload), {
    path: filePath,
    size: (await stat(filePath)).size,
    name: 'warm-up.pdf',
  });
  if (stored.status !== 201) throw new Error(`warm-up: the storage POST answered ${stored.status}`);
}

function postForm(
  url: URL,
  fields: [string, string][],
  file: { path: string; size: number; name: string },
): Promise<{ status: number; body: string }> {
  const boundary = `----paraph-bench-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + file.size + tail.length),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.write(head);
    const stream = createReadStream(file.path);
    stream.on('error', reject);
    stream.on('end', () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}

async function measure(): Promise<BenchResult> {
  const problems: string[] = [];
  const notes: string[] = [];
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-bench-upload-file-'));
  const dataDir = await makeDataDir('upload');
  try {
    const pdfPath = path.join(workDir, 'large.pdf');
    await writeFile(pdfPath, await makeLargePdf(FILE_BYTES));
    const size = (await stat(pdfPath)).size;
    const warmUpPath = path.join(workDir, 'warm-up.pdf');
    await writeFile(warmUpPath, await makeLargePdf(WARM_UP_BYTES));

    // The reference: the same bytes copied by the kernel on the same disk, page cache as warm as for the
    // upload; the median of a few copies, since a single one varies several-fold with the disk's mood.
    const copies: number[] = [];
    for (let attempt = 0; attempt < COPY_RUNS; attempt += 1) {
      const copyStartedAt = performance.now();
      await copyFile(pdfPath, path.join(workDir, 'copy.pdf'));
      copies.push(performance.now() - copyStartedAt);
      await rm(path.join(workDir, 'copy.pdf'));
    }
    const copyMs = copies.sort((a, b) => a - b)[Math.floor(COPY_RUNS / 2)] ?? 0;

    await createBenchUser(dataDir, USER);
    const server = await startServer({ dataDir, demo: false });
    try {
      const token = await signInForApi(server.origin, USER.email, USER.password);
      const auth = { authorization: `Bearer ${token}` };
      const sampler = startSampler(server.pid);
      let samples: Sample[] | null = null;
      try {
        await sleep(SETTLE_MS);
        // One small upload first, through the same path: the first multipart request loads and compiles
        // code (the parser, the policy check) whose memory is a one-off cost of the process, not of the file.
        const warmUpBefore = sampler.sampleNow();
        await warmUp(server.origin, auth, warmUpPath);
        await sleep(SETTLE_MS / 2);
        notes.push(
          `a ${WARM_UP_BYTES / 1024} KB warm-up upload went first (server grew ${mib(
            Math.max(0, sampler.sampleNow() - warmUpBefore),
          )} on it); the budget is judged on the 50 MB upload after it`,
        );
        const requestResponse = await fetch(`${server.origin}/api/upload_requests`, {
          method: 'POST',
          headers: auth,
        });
        if (requestResponse.status !== 201)
          throw new Error(`POST /api/upload_requests answered ${requestResponse.status}`);
        const upload = ((await requestResponse.json()) as { data: { attributes: UploadAttributes } }).data
          .attributes;
        await sleep(SETTLE_MS / 2);

        const uploadBefore = sampler.sampleNow();
        const uploadStartedAt = clock();
        const stored = await postForm(new URL(upload.url, server.origin), storageFormFields(upload), {
          path: pdfPath,
          size,
          name: 'large.pdf',
        });
        const uploadEndedAt = clock();
        sampler.sampleNow();
        if (stored.status !== 201)
          problems.push(`the storage POST answered ${stored.status}: ${stored.body.slice(0, 300)}`);

        await sleep(SETTLE_MS / 2);
        const createBefore = sampler.sampleNow();
        const createStartedAt = clock();
        const created = await fetch(`${server.origin}/api/documents`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            original_filename: 'Large contract.pdf',
            file_url: `${upload.url}/${upload.key}`,
            filename: upload.key,
          }),
        });
        const createdBody = await created.text();
        const createEndedAt = clock();
        sampler.sampleNow();
        if (created.status !== 201)
          problems.push(`POST /api/documents answered ${created.status}: ${createdBody.slice(0, 300)}`);

        samples = await sampler.stop();
        const uploadMs = uploadEndedAt - uploadStartedAt;
        const createMs = createEndedAt - createStartedAt;
        // The samples taken right after each answer belong to it: the memory was allocated while it ran.
        const uploadWindow = during(samples, uploadStartedAt, uploadEndedAt + SAMPLE_MS);
        const createWindow = during(samples, createStartedAt, createEndedAt + SAMPLE_MS);
        const uploadGrowth = uploadWindow.peak - uploadBefore;
        const createGrowth = createWindow.peak - createBefore;
        const growthRatio = uploadGrowth / GROWTH_BUDGET_BYTES;
        const throughput = size / MIB / (uploadMs / 1000);
        if (growthRatio > 1)
          notes.push(
            `OVER BUDGET: the storage POST grew the server by ${mib(uploadGrowth)}, ${ratio(growthRatio)} the 30 MB budget`,
          );
        notes.push(
          `RSS sampled every ${SAMPLE_MS} ms in a worker thread: ${uploadWindow.count} samples during the storage POST (largest gap ${Math.round(uploadWindow.maxGapMs)} ms), ${createWindow.count} during POST /api/documents`,
        );
        notes.push(
          'POST /api/documents reads the whole upload back to check it is a PDF: its growth is informational, not budgeted',
        );
        return {
          name: 'upload',
          title: `a ${mib(size)} PDF through the presigned POST, server RSS sampled from /proc`,
          tables: [
            {
              title: 'Time',
              columns: ['measure', 'value'],
              rows: [
                ['file size', mib(size)],
                ['storage POST time', ms(uploadMs)],
                ['storage POST throughput', `${throughput.toFixed(1)} MB/s`],
                [`fs.copyFile of the same file (reference, median of ${COPY_RUNS})`, ms(copyMs)],
                ['upload / copy', ratio(uploadMs / copyMs)],
                ['POST /api/documents time', ms(createMs)],
              ],
            },
            {
              title: 'Server memory (RSS)',
              columns: ['measure', 'value'],
              rows: [
                ['before the storage POST', mib(uploadBefore)],
                ['peak during the storage POST', mib(uploadWindow.peak)],
                ['growth during the storage POST', mib(uploadGrowth)],
                ['budget', mib(GROWTH_BUDGET_BYTES)],
                ['growth / budget', ratio(growthRatio)],
                ['before POST /api/documents', mib(createBefore)],
                ['peak growth during POST /api/documents (informational)', mib(createGrowth)],
              ],
            },
          ],
          metrics: {
            fileBytes: size,
            uploadMs: Math.round(uploadMs),
            uploadMBps: round(throughput, 1),
            copyMs: round(copyMs, 1),
            uploadOverCopy: round(uploadMs / copyMs, 1),
            rssBeforeBytes: uploadBefore,
            rssPeakUploadBytes: uploadWindow.peak,
            rssGrowthUploadBytes: uploadGrowth,
            growthBudgetBytes: GROWTH_BUDGET_BYTES,
            growthOverBudget: round(growthRatio, 3),
            createDocumentMs: Math.round(createMs),
            rssGrowthCreateDocumentBytes: createGrowth,
            samplesDuringUpload: uploadWindow.count,
          },
          notes,
          problems,
        };
      } finally {
        if (samples === null) await sampler.stop().catch(() => undefined);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const uploadBench: Bench = {
  name: 'upload',
  title: 'a 50 MB PDF through the presigned POST',
  run: measure,
};
