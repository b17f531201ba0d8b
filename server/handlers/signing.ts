// The sign call and what the app polls (docs/decisions.md "Signing on the server"): the caller's
// smart cards, a request to sign (a pending document version that the identity app answers) and that
// version's state. The sign call only records the request: the document enters `signing` when the
// signer confirms (server/documents/signing-confirm.ts).
import { randomUUID } from 'node:crypto';
import type { components } from '../../openapi/schema';
import { recordAudit } from '../audit.ts';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import { canApply } from '../../machines/document-lifecycle.ts';
import {
  actionDb,
  actionNotAllowed,
  documentNotFound,
  isPostgres,
  loadDocumentContext,
} from '../documents/access.ts';
import { PLACEMENT_BOUNDS } from '../documents/sign-flow-input.ts';
import { recordOf } from '../documents/sign-flow-lifecycle.ts';
import { ownSmartCard, serializeSmartCard, smartCardsOf } from '../documents/signing-cards.ts';
import {
  expirePendingVersions,
  ownVersion,
  serializeVersion,
  VERSION_TTL_MS,
  versionNotFound,
} from '../documents/signing-versions.ts';
import { ApiError } from '../http/errors.ts';
import { actionMeta } from './document-actions.ts';
import { sendConfirmationRequest } from './document-versions-resend.ts';

type SignRequest = components['schemas']['SignRequest'];

export const LOCATION_MIN = 2;
export const TEXT_MAX = 128;

function invalid(code: string, field: string, message: string): ApiError {
  return new ApiError(422, code, message, { field, validations: { [field]: [message] } });
}

type ParsedSign = {
  smartCardId: string;
  location: string;
  reason: string;
  signPageNumber: number | null;
  top: string | null;
  left: string | null;
};

// The schema has refused malformed bodies (400); what is left are the rules after trimming.
export function parseSignBody(body: SignRequest): ParsedSign {
  const location = body.location.trim();
  if (location.length < LOCATION_MIN || location.length > TEXT_MAX) {
    throw invalid(
      'validation.location',
      'location',
      location.length === 0
        ? 'A location must be filled in.'
        : 'The location must be 2 to 128 characters long.',
    );
  }
  const reason = (body.reason ?? '').trim();
  if (reason.length > TEXT_MAX) throw invalid('validation.reason', 'reason', 'The reason is too long.');
  return {
    smartCardId: body.smart_card_id.toLowerCase(),
    location,
    reason,
    signPageNumber: body.sign_page_number ?? null,
    top: body.signature_top ?? null,
    left: body.signature_left ?? null,
  };
}

// The owner's own signature needs its place: the page (from 1) and the box's top-left corner.
// The owner signing alone either places the box (sign_page_number is then its page, 1-based) or asks
// for a signature page (no box: sign_page_number 0 last, 1 first, N + 1 after page N), as spec 001 §9
// and the sign flows' own signature page have it.
function soloPlacementOf(input: ParsedSign, pageCount: number) {
  const { signPageNumber: page, top, left } = input;
  if (top === null && left === null) {
    if (page === null) {
      throw invalid('sign.placement_required', 'sign_page_number', 'Place your signature before signing.');
    }
    if (page > pageCount + 1) {
      throw invalid('validation.sign_page_number', 'sign_page_number', 'The document has no such page.');
    }
    return { sign_page_number: page, page_number: null, top_fraction: null, left_fraction: null };
  }
  if (page === null || page < 1 || top === null || left === null) {
    const field =
      page === null || page < 1 ? 'sign_page_number' : top === null ? 'signature_top' : 'signature_left';
    throw invalid('sign.placement_required', field, 'Place your signature on a page before signing.');
  }
  if (page > pageCount) {
    throw invalid('validation.sign_page_number', 'sign_page_number', 'The document has no such page.');
  }
  if (Number(left) > PLACEMENT_BOUNDS.maxLeft || Number(top) < PLACEMENT_BOUNDS.minTop) {
    throw invalid('validation.signature_coordinates', 'signature_top', 'The signature is outside the page.');
  }
  return { sign_page_number: page, page_number: page, top_fraction: top, left_fraction: left };
}

async function signDocument(req: OperationRequest<'signDocument'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const documentId = req.params.id;
  const input = parseSignBody(req.body);
  const origin = deps.config.publicOrigin;

  const version = await deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    const context = await loadDocumentContext(db, documentId, viewer, { lock: isPostgres(deps) });
    if (context === null) throw documentNotFound();
    const card = await ownSmartCard(db, viewer.id, input.smartCardId);
    if (card === undefined) {
      throw invalid('smart_card.unknown', 'smart_card_id', 'Choose one of your smart cards.');
    }
    const record = recordOf(context.row, context.flow, context.participants);
    // Who signs: the owner of a document without a flow, or the caller's participant row whose turn it is.
    const isSolo = context.permissions.isOwner && canApply(record, { type: 'solo.begin' });
    const participant = isSolo
      ? null
      : context.mine.find(
          (row) =>
            row.role === 'signatory' && canApply(record, { type: 'sign.begin', participantId: row.id }),
        );
    if (!isSolo && participant === undefined) throw actionNotAllowed();
    // A flow's signature goes where the flow says; it is resolved at confirmation.
    const placement = isSolo
      ? soloPlacementOf(input, context.row.page_count)
      : { sign_page_number: null, page_number: null, top_fraction: null, left_fraction: null };

    const now = meta.now;
    // A new request replaces the caller's open one for this document.
    await db
      .updateTable('document_versions')
      .set({ state: 'cancelled', answered_at: now.toISOString() })
      .where('document_id', '=', context.row.id)
      .where('user_id', '=', viewer.id)
      .where('state', '=', 'pending')
      .execute();
    const row = {
      id: randomUUID(),
      document_id: context.row.id,
      user_id: viewer.id,
      participant_id: participant?.id ?? null,
      smart_card_id: card.id,
      smart_card_type: card.smart_card_type,
      location: input.location,
      reason: input.reason,
      ...placement,
      state: 'pending' as const,
      file_key: null,
      sha256_before: null,
      sha256_after: null,
      created_at: now.toISOString(),
      answered_at: null,
      expires_at: new Date(now.getTime() + VERSION_TTL_MS).toISOString(),
      notified_at: null,
    };
    await db.insertInto('document_versions').values(row).execute();
    await recordAudit(db, {
      documentId: context.row.id,
      actorId: viewer.id,
      action: 'document.sign_requested',
      ip: meta.ip,
      userAgent: meta.userAgent,
      at: now,
      details: {
        versionId: row.id,
        participantId: row.participant_id,
        smartCardType: card.smart_card_type,
        solo: isSolo,
      },
    });
    await sendConfirmationRequest(db, {
      to: viewer.email,
      filename: context.row.original_filename,
      smartCardType: card.smart_card_type as components['schemas']['SmartCardType'],
      location: input.location,
      versionId: row.id,
      now,
    });
    return row;
  });
  return { data: serializeVersion(version, origin) };
}

export const signingHandlers: Handlers = {
  listSmartCards: async (req) => {
    const viewer = currentUser(req);
    const cards = await smartCardsOf(req.server.deps.db, viewer.id);
    return { data: cards.map(serializeSmartCard) };
  },
  signDocument,
  getDocumentVersion: async (req) => {
    const viewer = currentUser(req);
    const deps = req.server.deps;
    const id = req.params.id.toLowerCase();
    await expirePendingVersions(deps.db, deps.clock(), viewer.id);
    const version = await ownVersion(deps.db, id, viewer.id);
    if (version === null) throw versionNotFound();
    return { data: serializeVersion(version, deps.config.publicOrigin) };
  },
};
