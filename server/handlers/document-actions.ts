// Archive and delete, one document or several (all or none), and the document details with the
// participant's "delete for me" applied.
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../auth/current-user.ts';
import type { AppDeps, AuthUser, Handlers, OperationRequest } from '../context.ts';
import type { RequestWithId } from '../http/typed-handler.ts';
import {
  actionDb,
  actionNotAllowed,
  documentNotFound,
  isPostgres,
  loadDocumentContext,
  type ActionDb,
  type DocumentContext,
} from '../documents/access.ts';
import {
  archiveForViewer,
  deleteAsOwner,
  deleteStoredFiles,
  hideForViewer,
  type ActionMeta,
} from '../documents/actions.ts';
import { participantActionPending } from '../documents/permissions.ts';
import { serializeDocuments } from '../documents/serialize.ts';
import { ApiError } from '../http/errors.ts';
import type { PendingDeletion } from '../storage/pending-deletions.ts';

export function actionMeta(req: FastifyRequest, viewer: AuthUser): ActionMeta {
  const userAgent = req.headers['user-agent'];
  return {
    actorId: viewer.id,
    ip: req.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    now: req.server.deps.clock(),
  };
}

// Runs `work` in one transaction over the documents, locked in id order (so two bulk calls cannot
// deadlock). Unknown or invisible ids answer 404; documents `blocks` refuses answer 409, and nothing
// changes in either case.
async function forDocuments<T>(
  deps: AppDeps,
  viewer: AuthUser,
  ids: readonly string[],
  options: { bulk: boolean; blocks: (context: DocumentContext) => ApiError | null },
  work: (db: ActionDb, contexts: DocumentContext[]) => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(ids)].sort();
  return deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    const contexts: DocumentContext[] = [];
    const missing: string[] = [];
    for (const id of sorted) {
      const context = await loadDocumentContext(db, id, viewer, { lock: isPostgres(deps) });
      if (context === null) missing.push(id);
      else contexts.push(context);
    }
    if (missing.length > 0) {
      if (!options.bulk) throw documentNotFound();
      throw new ApiError(404, 'not_found', 'Some documents were not found.', { blockedIds: missing });
    }
    const blocked = contexts
      .map((context) => ({ id: context.row.id, error: options.blocks(context) }))
      .filter((entry) => entry.error !== null);
    const first = blocked[0]?.error;
    if (first !== undefined && first !== null) {
      if (!options.bulk) throw first;
      throw new ApiError(409, 'bulk_blocked', 'Some documents do not allow this action now.', {
        blockedIds: blocked.map((entry) => entry.id),
      });
    }
    // Back in the order the caller sent.
    const byId = new Map(contexts.map((context) => [context.row.id, context]));
    return work(
      db,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
  });
}

const archiveBlock = (context: DocumentContext): ApiError | null =>
  context.permissions.currentUserCanArchive ? null : actionNotAllowed();

function deleteBlock(context: DocumentContext): ApiError | null {
  if (context.permissions.currentUserCanDelete) return null;
  if (!context.permissions.isOwner && participantActionPending(context.row.state, context.mine)) {
    return new ApiError(
      409,
      'participant_action_pending',
      'You still have to review or sign this document before you can delete it.',
    );
  }
  return actionNotAllowed();
}

async function archive(req: FastifyRequest, ids: string[], bulk: boolean) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const contexts = await forDocuments(
    deps,
    viewer,
    ids,
    { bulk, blocks: archiveBlock },
    async (db, found) => {
      for (const context of found) await archiveForViewer(db, context, meta, viewer.id);
      return found;
    },
  );
  const rows = await deps.db
    .selectFrom('documents')
    .selectAll()
    .where(
      'id',
      'in',
      contexts.map((context) => context.row.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = contexts.flatMap((context) => byId.get(context.row.id) ?? []);
  return serializeDocuments(deps, ordered, viewer, { archivedByViewer: true });
}

async function remove(req: FastifyRequest, ids: string[], bulk: boolean): Promise<void> {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const keys = await forDocuments(deps, viewer, ids, { bulk, blocks: deleteBlock }, async (db, found) => {
    const files: PendingDeletion[] = [];
    for (const context of found) {
      if (context.permissions.isOwner) files.push(...(await deleteAsOwner(db, context, meta)));
      else await hideForViewer(db, context, meta, viewer.id);
    }
    return files;
  });
  await deleteStoredFiles(deps, keys);
}

function bodyIds(req: OperationRequest<'archiveDocuments' | 'deleteDocuments'>): string[] {
  return req.body.id;
}

function pathId(req: RequestWithId): string {
  return req.params.id;
}

export const documentActionHandlers: Handlers = {
  archiveDocument: async (req) => {
    const [document] = await archive(req, [pathId(req)], false);
    // forDocuments answers 404 for an id the viewer cannot see, so one id found is one document.
    if (document === undefined) throw new Error('An archived document serialised to nothing');
    return { data: document };
  },
  archiveDocuments: async (req) => ({ data: await archive(req, bodyIds(req), true) }),
  deleteDocument: async (req, reply) => {
    await remove(req, [pathId(req)], false);
    return reply.status(204).send();
  },
  deleteDocuments: async (req, reply) => {
    await remove(req, bodyIds(req), true);
    return reply.status(204).send();
  },
};
