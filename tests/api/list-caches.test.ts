// What a list keeps between requests: each document's resource as last sent to a person (until the
// document, the names or the person's archive of it change) and the page as sent (until anything in the
// person's lists changes), neither for longer than its oldest storage link allows. That the kept resources
// follow every kind of change is the list tables' property test (document-lists-sync.test.ts); here, what
// is reused and for how long.
import {
  RawNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
} from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, insertDocument, type TestApp } from './helpers.ts';

// The text of every statement the app runs (its raw SQL fragments, nested ones included): the lists'
// statements are written out as raw SQL.
class StatementLog implements KyselyPlugin {
  readonly texts: string[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.texts.push(textOf(args.node));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<PluginTransformResultArgs['result']> {
    return args.result;
  }
}

function textOf(node: OperationNode): string {
  if (!RawNode.is(node)) return '';
  return node.sqlFragments
    .map((fragment, at) => {
      const parameter = node.parameters[at];
      return fragment + (parameter === undefined ? '' : textOf(parameter));
    })
    .join('');
}

type Listed = { id: string; attributes: { originalFilename: string; pdfUrl: string | null } };

const START = new Date('2026-03-02T09:00:00.000Z');

describe('what the document lists keep between requests', () => {
  let t: TestApp | undefined;
  let now = START;
  const at = (seconds: number) => {
    now = new Date(START.getTime() + seconds * 1000);
  };

  afterEach(async () => {
    await t?.close();
    t = undefined;
    now = START;
  });

  async function setUp(env: Record<string, string>, log?: StatementLog) {
    const app = await buildTestApp({ clock: () => now, env });
    t = app;
    if (log !== undefined) app.deps.db = app.deps.db.withPlugin(log);
    const ada = await app.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    const token = await app.signIn(ada.email);
    const add = (name: string) => insertDocument(app.deps, { ownerId: ada.id, originalFilename: name });
    const list = async () => {
      const response = await app.app.inject({ url: '/api/documents/active', headers: bearer(token) });
      expect(response.statusCode, response.body).toBe(200);
      const listed = response.json<{ data: Listed[] }>().data;
      return { body: response.body, byId: new Map(listed.map((doc) => [doc.id, doc.attributes])) };
    };
    const rename = (id: string, name: string) =>
      app.deps.db.updateTable('documents').set({ original_filename: name }).where('id', '=', id).execute();
    return { add, list, rename };
  }

  it('writes again only the document that changed, and no link older than a minute', async () => {
    const { add, list, rename } = await setUp({ PARAPH_LIST_CACHE_MB: '0' });
    const changed = await add('draft.pdf');
    const same = await add('lease.pdf');
    const first = await list();

    // Past the link cache's half minute: the changed document is read and its links signed again, the other
    // is sent as it was written.
    at(35);
    await rename(changed, 'final.pdf');
    const second = await list();
    expect(second.byId.get(changed)?.originalFilename).toBe('final.pdf');
    expect(second.byId.get(changed)?.pdfUrl).not.toBe(first.byId.get(changed)?.pdfUrl);
    expect(second.byId.get(same)).toEqual(first.byId.get(same));

    // A minute after its links were signed, it is written again with new ones.
    at(61);
    const third = await list();
    expect(third.byId.get(same)?.originalFilename).toBe('lease.pdf');
    expect(third.byId.get(same)?.pdfUrl).not.toBe(first.byId.get(same)?.pdfUrl);
  });

  it('without the document cache, writes every document of a page anew', async () => {
    const { add, list } = await setUp({ PARAPH_LIST_CACHE_MB: '0', PARAPH_DOCUMENT_CACHE_MB: '0' });
    const id = await add('lease.pdf');
    const first = await list();
    at(35);
    const second = await list();
    expect(second.byId.get(id)?.originalFilename).toBe('lease.pdf');
    expect(second.byId.get(id)?.pdfUrl).not.toBe(first.byId.get(id)?.pdfUrl);
  });

  it('reads a first page that was not sent before with its count, in one statement', async () => {
    const log = new StatementLog();
    const { add, list, rename } = await setUp({ PARAPH_LIST_CACHE_MB: '0' }, log);
    const id = await add('lease.pdf');
    await add('invoice.pdf');
    await list();
    const listStatements = () =>
      log.texts.filter((text) => /document_list_counts|document_viewers/.test(text)).length;

    const before = listStatements();
    expect((await list()).byId.size).toBe(2);
    expect(listStatements() - before).toBe(1);

    // The same after a change: the changed document is read again, the page and its count still together.
    await rename(id, 'lease-2026.pdf');
    const afterChange = listStatements();
    expect((await list()).byId.get(id)?.originalFilename).toBe('lease-2026.pdf');
    expect(listStatements() - afterChange).toBe(1);
  });

  it('sends a page again until its oldest link is a minute old, or anything on it changes', async () => {
    const { add, list, rename } = await setUp({});
    const id = await add('lease.pdf');
    const first = await list();
    at(45);
    expect((await list()).body).toBe(first.body);
    // Read anew after a change, the page keeps the other document's links of the first request: it is
    // reused only until they are a minute old, not a minute from now.
    const other = await add('invoice.pdf');
    await rename(other, 'invoice-2026.pdf');
    const changed = await list();
    expect(changed.byId.get(other)?.originalFilename).toBe('invoice-2026.pdf');
    expect(changed.byId.get(id)?.pdfUrl).toBe(first.byId.get(id)?.pdfUrl);
    at(59);
    expect((await list()).body).toBe(changed.body);
    at(60);
    const renewed = await list();
    expect(renewed.byId.get(id)?.originalFilename).toBe('lease.pdf');
    expect(renewed.byId.get(id)?.pdfUrl).not.toBe(first.byId.get(id)?.pdfUrl);
  });
});
