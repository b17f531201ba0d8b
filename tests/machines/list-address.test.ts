import { describe, expect, it } from 'vitest';
import { DEFAULT_ADDRESS, listAddressQuery, parseListAddress } from '../../machines/list-address';

describe('list address', () => {
  it('reads page, search, sort and selection, and writes them back the same', () => {
    const query = '?search=lease+2026&sort=autodeletion_at.asc&page=3&selected=d1,d2';
    const address = parseListAddress(query);
    expect(address).toEqual({
      page: 3,
      search: 'lease 2026',
      sort: { column: 'autodeletion_at', direction: 'asc' },
      selectedIds: ['d1', 'd2'],
    });
    expect(listAddressQuery(address)).toBe(query);
  });

  it('says nothing of what is at its default', () => {
    expect(listAddressQuery(DEFAULT_ADDRESS)).toBe('');
    expect(listAddressQuery(parseListAddress('?page=1&sort=created_at.desc&search=%20%20'))).toBe('');
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=-2', 'page'],
    ['?page=2.5', 'page'],
    ['?page=abc', 'page'],
    ['?page=99999999999', 'page'],
    ['?sort=name.asc', 'sort'],
    ['?sort=created_at', 'sort'],
    ['?sort=created_at.sideways', 'sort'],
    ['?selected=<script>', 'selected'],
    ['?selected=,,', 'selected'],
  ])('drops what does not fit (%s) instead of failing', (query) => {
    expect(parseListAddress(query)).toEqual(DEFAULT_ADDRESS);
  });

  it('keeps a search to 255 characters, and at most 100 distinct selected ids', () => {
    const ids = Array.from({ length: 150 }, (_, index) => `d${index}`);
    const address = parseListAddress(
      `?search=${'a'.repeat(300)}&selected=${[...ids, 'd1', 'd2'].join(',')}`,
    );
    expect(address.search).toHaveLength(255);
    expect(address.selectedIds).toEqual(ids.slice(0, 100));
  });
});
