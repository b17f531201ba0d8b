// The mail settings are checked at start with a message that says what is wrong, never repeating a
// password; the catalogs of every language say the same things with the same values; a queue row from
// before the queue, and one whose runner died, are not lost.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { placeholders } from './catalog-support.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrationsFor } from '../../server/db/migrate.ts';
import en from '../../server/mail/catalogs/en.json' with { type: 'json' };
import es from '../../server/mail/catalogs/es.json' with { type: 'json' };
import fr from '../../server/mail/catalogs/fr.json' with { type: 'json' };
import { MAIL_LOCALES, parseMailMessage, renderMail, type MailMessage } from '../../server/mail/messages.ts';

describe('mail settings', () => {
  it('reads SMTP_URL, PARAPH_MAIL_FROM and PARAPH_REMINDER_DAYS, with defaults', () => {
    expect(loadConfig({})).toMatchObject({
      smtpUrl: null,
      mailFrom: 'Paraph <no-reply@localhost>',
      reminderDays: 3,
    });
    const config = loadConfig({
      SMTP_URL: 'smtps://mailer:s3cret@mail.example.test:465',
      PARAPH_MAIL_FROM: 'Contracts <contracts@example.test>',
      PARAPH_REMINDER_DAYS: '0',
      PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://mailer:s3cret@mail.example.test:465',
      mailFrom: 'Contracts <contracts@example.test>',
      reminderDays: 0,
    });
    expect(loadConfig({ PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test' }).mailFrom).toBe(
      'Paraph <no-reply@sign.example.test>',
    );
    expect(loadConfig({ PARAPH_MAIL_FROM: 'no-reply@example.test' }).mailFrom).toBe('no-reply@example.test');
  });

  it('stops at start on a bad value, without repeating the password', () => {
    for (const value of ['http://mailer:s3cret@mail.example.test', 'mail.example.test', 'smtp://']) {
      expect(() => loadConfig({ SMTP_URL: value })).toThrow(
        /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
      );
      try {
        loadConfig({ SMTP_URL: value });
      } catch (error) {
        expect(String(error)).not.toContain('s3cret');
      }
    }
    expect(() => loadConfig({ PARAPH_MAIL_FROM: 'Paraph <not an address>' })).toThrow(/PARAPH_MAIL_FROM/);
    expect(() => loadConfig({ PARAPH_MAIL_FROM: 'a@b.test\r\nBcc: x@y.test' })).toThrow(/PARAPH_MAIL_FROM/);
    expect(() => loadConfig({ PARAPH_REMINDER_DAYS: '-1' })).toThrow(/PARAPH_REMINDER_DAYS/);
    expect(() => loadConfig({ PARAPH_REMINDER_DAYS: 'weekly' })).toThrow(/PARAPH_REMINDER_DAYS/);
  });
});

describe('mail catalogs', () => {
  it('have the same messages with the same placeholders in every language', () => {
    const catalogs: Record<string, Record<string, string>> = { en, es, fr };
    for (const locale of MAIL_LOCALES) {
      expect(Object.keys(catalogs[locale] ?? {}).sort(), locale).toEqual(Object.keys(en).sort());
      for (const [id, text] of Object.entries(en)) {
        expect(placeholders(catalogs[locale]?.[id] ?? ''), `${locale} ${id}`).toEqual(placeholders(text));
      }
    }
  });

  it('French uses the curly apostrophe and a space before its double punctuation', () => {
    for (const text of Object.values(fr)) {
      expect(text).not.toContain("'");
      expect(text).not.toMatch(/\S[:?!;]/);
    }
  });

  it('renders every kind in every language with no placeholder left and nothing undefined', () => {
    const person = { fullName: 'Ada Lovelace', email: 'ada@example.test' };
    const target = { documentId: 'd1', inviteId: null };
    const messages: MailMessage[] = [
      {
        kind: 'flow.invitation',
        role: 'reviewer',
        sender: person,
        filename: 'a.pdf',
        comment: 'c',
        email: 'x@y.test',
        inviteId: 'i1',
      },
      { kind: 'flow.turn', role: 'signatory', sender: person, filename: 'a.pdf', comment: '', target },
      {
        kind: 'flow.reminder',
        role: 'reviewer',
        sender: person,
        filename: 'a.pdf',
        target,
        since: '2026-11-02T09:00:00Z',
      },
      { kind: 'flow.completed', filename: 'a.pdf', target },
      { kind: 'flow.refused', actor: person, filename: 'a.pdf', target, reason: 'r' },
      { kind: 'flow.rejected', actor: person, filename: 'a.pdf', target, reason: null },
      { kind: 'flow.cancelled', actor: person, filename: 'a.pdf', target: null, reason: null },
      { kind: 'connection.request', sender: person },
      { kind: 'connection.invitation', sender: person, email: 'x@y.test' },
      {
        kind: 'signature.confirmation',
        filename: 'a.pdf',
        smartCardType: 'business_level4',
        location: 'Lyon',
        versionId: 'v1',
      },
    ];
    for (const locale of MAIL_LOCALES) {
      for (const message of messages) {
        const mail = renderMail(message, locale, 'https://sign.example.test');
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part, `${locale} ${message.kind}`).not.toMatch(/[{}]|undefined|null/);
        }
        expect(mail.html).toContain(`<html lang="${locale}">`);
      }
    }
  });
});

describe('the mail queue migration', () => {
  it('moves the messages written before the queue, as kept text, and dates the turns already waiting', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-mail-migration-'));
    const { db, dialect } = await openDatabase({ dataDir, databaseUrl: null });
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
      const before = await migrator.migrateTo('0010_storage_cleanup');
      expect(before.error).toBeUndefined();
      const legacy = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await legacy
        .insertInto('outbox')
        .values({
          id: 'm1',
          to_email: 'dave@example.test',
          subject: 'Ada invites you to sign “A.pdf”',
          body: 'Create your account: /sign_up?invite=i1',
          created_at: '2026-10-01T08:00:00.000Z',
        })
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const moved = await db.selectFrom('mail_queue').selectAll().execute();
      expect(moved).toEqual([
        expect.objectContaining({ id: 'm1', to_email: 'dave@example.test', kind: 'text', state: 'kept' }),
      ]);
      const message = parseMailMessage(moved[0]?.kind ?? '', moved[0]?.params ?? '');
      expect(message).toEqual({
        kind: 'text',
        subject: 'Ada invites you to sign “A.pdf”',
        body: 'Create your account: /sign_up?invite=i1',
      });
    } finally {
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
