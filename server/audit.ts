// The append-only audit trail: every change to a document writes one row, never updated or deleted.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';

export type AuditEntry = {
  documentId: string;
  actorId: string | null;
  action: string;
  ip?: string | null;
  userAgent?: string | null;
  sha256Before?: string | null;
  sha256After?: string | null;
  details?: Record<string, unknown>;
  at?: Date;
};

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      document_id: entry.documentId,
      actor_id: entry.actorId,
      action: entry.action,
      at: (entry.at ?? new Date()).toISOString(),
      ip: entry.ip ?? null,
      user_agent: entry.userAgent ?? null,
      sha256_before: entry.sha256Before ?? null,
      sha256_after: entry.sha256After ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
