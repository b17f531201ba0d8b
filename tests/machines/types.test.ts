import { describe, expect, it } from 'vitest';
import { toApiFailure, toErrorCode } from '../../machines/types';

class FakeApiError extends Error {
  readonly code = 'not_a_pdf';
  readonly status = 422;
  readonly field = 'filename';
}

describe('toErrorCode', () => {
  it('keeps the code of an API failure, whether a plain object or an Error carrying one', () => {
    expect(toErrorCode({ code: 'unauthorized', status: 401 })).toBe('unauthorized');
    expect(toApiFailure(new FakeApiError('refused'))).toEqual({
      code: 'not_a_pdf',
      status: 422,
      field: 'filename',
    });
  });

  it.each([
    ['a TypeError from fetch', new TypeError('Failed to fetch')],
    ['an empty code', { code: '' }],
    ['nothing', undefined],
    ['a string', 'boom'],
  ])('maps %s to network', (_, error) => {
    expect(toErrorCode(error)).toBe('network');
  });
});
