// What the PDF sandbox's child writes to stderr (pdfjs's stray rejections, V8's report when it runs out of
// heap) reaches the server's log as JSON lines, so a production log holds nothing else.
import { PassThrough, Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logOptions } from '../../server/http/logging.ts';
import { forwardLines } from '../../server/pdf/sandbox.ts';

describe('the PDF sandbox’s stderr', () => {
  it('becomes one JSON warn line per line written, blank lines dropped', async () => {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line) => line !== ''),
        );
        callback();
      },
    });
    const stderr = new PassThrough();
    forwardLines(stderr, pino(logOptions('info'), sink), { source: 'pdf-sandbox', childPid: 4242 });
    stderr.end(
      'pdf sandbox: Invalid PDF structure.\n\n<--- Last few GCs --->\r\nFATAL ERROR: Reached heap limit',
    );
    await new Promise((resolve) => stderr.on('close', resolve));

    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: 40,
        source: 'pdf-sandbox',
        childPid: 4242,
        msg: 'pdf sandbox: Invalid PDF structure.',
      }),
      expect.objectContaining({ level: 40, msg: '<--- Last few GCs --->' }),
      expect.objectContaining({ level: 40, msg: 'FATAL ERROR: Reached heap limit' }),
    ]);
  });
});
