// Links are built from the configured public origin only: a forged Host (or X-Forwarded-Host, even
// behind a trusted proxy) never reaches the identity-app link of a sign request, nor the stored message.
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers.ts';
import { queuedMessages } from './mail-support.ts';
import { cardFor, SOLO_PLACEMENT, storedDocument } from './signing-support.ts';

const FORGED = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

describe('links under a forged Host header', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  async function signAndResend(env: Record<string, string>) {
    t = await buildTestApp({ env: { PARAPH_TRUST_PROXY: '127.0.0.1', ...env } });
    const ada = await t.createUser({ email: 'ada@example.test' });
    const token = await t.signIn(ada.email);
    const card = await cardFor(t.deps, ada.id);
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    const signed = await t.app.inject({
      method: 'PATCH',
      url: `/api/documents/${id}/sign`,
      headers: { ...bearer(token), ...FORGED },
      payload: { smart_card_id: card, location: 'Amsterdam', ...SOLO_PLACEMENT },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const version = signed.json<{ data: { id: string; attributes: { confirmationUrl: string } } }>().data;
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/document_versions/${version.id}/resend_notification`,
      headers: { ...bearer(token), ...FORGED },
    });
    expect(resent.statusCode).toBe(204);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/document_versions/${version.id}`,
      headers: { ...bearer(token), ...FORGED },
    });
    const messages = await queuedMessages(t.deps.db, { to: ada.email, origin: t.deps.config.publicOrigin });
    return {
      versionId: version.id,
      answered: version.attributes.confirmationUrl,
      read: read.json<{ data: { attributes: { confirmationUrl: string } } }>().data.attributes
        .confirmationUrl,
      messages: messages.map((message) => message.body),
    };
  }

  it('uses PARAPH_PUBLIC_ORIGIN', async () => {
    const result = await signAndResend({ PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test' });
    const link = `https://sign.example.test/idp/requests/${result.versionId}`;
    expect([result.answered, result.read]).toEqual([link, link]);
    expect(result.messages).toHaveLength(2);
    for (const body of result.messages) {
      expect(body).toContain(link);
      expect(body).not.toContain('evil.example');
    }
  });

  it('uses http://localhost:<PORT> on a loopback server without one', async () => {
    const result = await signAndResend({ PORT: '8123' });
    const link = `http://localhost:8123/idp/requests/${result.versionId}`;
    expect([result.answered, result.read]).toEqual([link, link]);
    for (const body of result.messages) {
      expect(body).toContain(link);
      expect(body).not.toContain('evil.example');
    }
  });
});
