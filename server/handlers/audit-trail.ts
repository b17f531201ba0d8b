// GET /documents/{id}/audit_trail: the document's audit trail as a PDF, for whoever may see the document
// (the owner and the participants; anyone else gets the same 404 as for an unknown id). Reading the
// trail changes nothing, so it is not an audit event itself.
import type { FastifyReply } from 'fastify';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers, OperationRequest } from '../context.ts';
// The app saves the file under the same name (the rule lives with the app's download machine).
import { auditTrailFileName } from '../../machines/audit-trail-download.machine.ts';
import { buildAuditTrailPdf, type AuditTrailEvent } from '../documents/audit-trail-pdf.ts';
import { loadVisibleDocument } from '../documents/serialize.ts';
import { attachmentDisposition } from '../storage/content-disposition.ts';

function parseDetails(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

async function getDocumentAuditTrail(req: OperationRequest<'getDocumentAuditTrail'>, reply: FastifyReply) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const { id } = req.params;
  const document = await loadVisibleDocument(deps, id, viewer);
  const [owner, rows] = await Promise.all([
    deps.db
      .selectFrom('users')
      .select(['full_name', 'email'])
      .where('id', '=', document.owner_id)
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('audit_events')
      .leftJoin('users', 'users.id', 'audit_events.actor_id')
      .select([
        'audit_events.at',
        'audit_events.action',
        'audit_events.actor_id',
        'audit_events.ip',
        'audit_events.user_agent',
        'audit_events.sha256_before',
        'audit_events.sha256_after',
        'audit_events.details',
        'users.full_name',
        'users.email',
      ])
      .where('audit_events.document_id', '=', document.id)
      // Times are ISO text, so they sort as text; the id only makes equal times come out the same way.
      .orderBy('audit_events.at')
      .orderBy('audit_events.id')
      .execute(),
  ]);
  const events: AuditTrailEvent[] = rows.map((row) => ({
    at: row.at,
    action: row.action,
    actor:
      row.actor_id === null
        ? null
        : { fullName: row.full_name ?? '', email: row.email ?? `unknown user ${row.actor_id}` },
    ip: row.ip,
    userAgent: row.user_agent,
    sha256Before: row.sha256_before,
    sha256After: row.sha256_after,
    details: parseDetails(row.details),
  }));
  const pdf = await buildAuditTrailPdf({
    document: {
      id: document.id,
      originalFilename: document.original_filename,
      sha256: document.sha256,
      pageCount: document.page_count,
      createdAt: document.created_at,
      owner: { fullName: owner.full_name, email: owner.email },
    },
    events,
    generatedAt: deps.clock(),
  });
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', attachmentDisposition(auditTrailFileName(document.original_filename)))
    .header('cache-control', 'no-store')
    .send(Buffer.from(pdf));
}

export const auditTrailHandlers: Handlers = { getDocumentAuditTrail };
