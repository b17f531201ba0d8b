// The build's two catalog parts (scripts/catalog-parts.ts): the first takes every message the first
// screen's built code names, whole or through a prefix ending in '.', however the minifier quoted it;
// the second takes the others.
import { describe, expect, it } from 'vitest';
import { messageIdsIn, splitCatalog } from '../../scripts/catalog-parts';

const IDS = [
  'app.loading',
  'app.name',
  'documents.status.signed',
  'documents.status.refused',
  'documents.sign.title',
  'verify.title',
];

describe('messageIdsIn', () => {
  it('finds the ids named in any quotes, and nothing that is only part of a longer string', () => {
    const code = `a("app.loading");b('app.name');c(\`documents.sign.title\`);d("verify.title is here");e("app")`;
    expect([...messageIdsIn(code, IDS)].sort()).toEqual(['app.loading', 'app.name', 'documents.sign.title']);
  });

  it('takes every id an id built from a prefix may be: a template head or a string ending in "."', () => {
    expect([...messageIdsIn('f(`documents.status.${s}`)', IDS)].sort()).toEqual([
      'documents.status.refused',
      'documents.status.signed',
    ]);
    expect([...messageIdsIn('f("documents.status."+s)', IDS)].sort()).toEqual([
      'documents.status.refused',
      'documents.status.signed',
    ]);
  });

  it('judges each string on its own, so a stray quote elsewhere does not hide the next id', () => {
    const code = `const q=/["']/g;x("app.loading");y='it\\'s';z("verify.title")`;
    expect([...messageIdsIn(code, IDS)].sort()).toEqual(['app.loading', 'verify.title']);
  });
});

describe('splitCatalog', () => {
  it('puts the named messages in the first part and all others in the rest, in the catalog order', () => {
    const catalog = Object.fromEntries(IDS.map((id) => [id, `text of ${id}`]));
    const { first, rest } = splitCatalog(catalog, new Set(['verify.title', 'app.loading']));
    expect(Object.keys(first)).toEqual(['app.loading', 'verify.title']);
    expect(Object.keys(rest)).toEqual([
      'app.name',
      'documents.status.signed',
      'documents.status.refused',
      'documents.sign.title',
    ]);
    expect({ ...first, ...rest }).toEqual(catalog);
  });
});
