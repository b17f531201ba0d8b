// The answer to a request to sign (docs/decisions.md "Signing on the server"), called by the identity app
// (/idp/), its autoconfirm job and the tests. A confirmation runs in three steps:
//  1. a transaction on the locked document: the request must still be pending and the lifecycle must
//     still let this person sign (else the request is cancelled), the month's sign limit is checked, and
//     `sign.begin` (`solo.begin` for the owner's own signature) puts the document in `signing`;
//  2. outside any transaction, the signer stamps and signs the current file (the latest signed file, else
//     the original) into a new stored object;
//  3. a second locked transaction points the document at the new file and applies `sign.complete`, or
//     `sign.abort` when step 2 failed (the stored files untouched), and writes the audit entry.
// When step 2 fails because the time-stamping authority or the OCSP responder did not answer, the request
// is put back `pending` (`service_unavailable`): nothing was stored, and the signer may confirm again.
// A confirmation that finds someone else's signature being applied waits for it (short backoff, at most
// ~20 s), so two signers of a standard flow confirming at the same instant both sign, one after the other.
import { setTimeout as sleep } from 'node:timers/promises';
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import { isDatabaseUnavailable, retryWhileDatabaseAway } from '../db/connection-errors.ts';
import type { DocumentRow, DocumentVersionRow, DocumentVersionState, ParticipantRow } from '../db/schema.ts';
import { queueRenderPages } from '../images/worker.ts';
import { RevocationUnavailableError, TimeStampUnavailableError } from '../signing/pki/errors.ts';
import { PresignError, type SignaturePlacement } from '../signing/signer.ts';
import type { SmartCardType } from '../signing/smart-card-type.ts';
import { toStampLocale, type StampLocale } from '../signing/stamp-text.ts';
import { canApply } from '../../machines/document-lifecycle.ts';
import { baseDb, isPostgres, type ActionDb } from './access.ts';
import type { ActionMeta } from './actions.ts';
import { persistTransition, recordOf, transition, type LifecycleEvent } from './sign-flow-lifecycle.ts';
import { isSignLimitReached, SIGNED_ACTION } from './signing-limits.ts';
import {
  flowPlacement,
  shiftPastSignaturePages,
  soloPlacement,
  type ResolvedPlacement,
} from './signing-placement.ts';
import { expirePendingVersions, versionNotFound } from './signing-versions.ts';
import { ApiError } from '../http/errors.ts';
import { errorText } from '../http/logging.ts';

export type ConfirmInput = { versionId: string; userId: string; ip: string | null; userAgent: string | null };

export type ConfirmOutcome =
  | 'signed'
  | 'already_answered'
  | 'sign_limit_exceeded'
  | 'presign_error'
  | 'cancelled'
  // The TSA, the OCSP responder or the database did not answer: nothing signed, the request still pending.
  | 'service_unavailable';

/**
 * Which service a `service_unavailable` confirmation found down (the audit entry's reason): the TSA, the
 * OCSP responder, or the database the signature itself reads (the signer's certificate, revocations).
 */
export type UnavailableService = 'time_stamp_unavailable' | 'revocation_unavailable' | 'database_unavailable';

// How a confirmation ends when it ends the request.
type SettledOutcome = Exclude<ConfirmOutcome, 'service_unavailable'>;

export type ConfirmResult =
  { outcome: SettledOutcome } | { outcome: 'service_unavailable'; reason: UnavailableService };

export type DenyOutcome = 'denied' | 'already_answered';

/** How long a confirmation waits for another signature of the same document to be applied. */
export const BUSY_WAIT_MS = 20_000;
const BUSY_BACKOFF_MS = [50, 100, 200, 400, 800, 1000] as const;
// A database that restarts (pg_ctl restart, a failover) fails the statements of that moment on the
// connections it closed, and the next connections find it back, usually within a second. By then the
// signature is made and stored: aborting it would make the signer sign again, and a version left
// `signing` would be aborted by the expiry job two minutes later. Its end is written again instead.
const END_TRIES = 16;
const END_DELAY_MS = 1000;
// The signature itself reads the database too (the signer's certificate, the revocation status its
// long-term validation data carries): a restart then fails it before anything is stored, and it is made
// again once the database is back, rather than cancelling a request the signer did nothing wrong with.
// Away for longer, the request stays pending, as when the TSA is down.
const SIGN_TRIES = 8;
const SIGN_DELAY_MS = 500;

function whileDatabaseAway<T>(deps: AppDeps, input: ConfirmInput, write: () => Promise<T>): Promise<T> {
  return retryWhileDatabaseAway(write, {
    tries: END_TRIES,
    delayMs: END_DELAY_MS,
    onAway: (error) =>
      deps.log.warn(
        { versionId: input.versionId, error: errorText(error) },
        'the database is unavailable while a signature ends; writing its end again',
      ),
  });
}

// ------------------------------------------------------------------ shared reads

type Locked = { row: DocumentRow; version: DocumentVersionRow };

// The version (the caller's own, else 404), then its document locked, then the version read again: what
// it says now is what this transaction decides on.
async function lockVersion(deps: AppDeps, db: ActionDb, input: ConfirmInput): Promise<Locked> {
  const first = await db
    .selectFrom('document_versions')
    .select(['document_id', 'user_id'])
    .where('id', '=', input.versionId)
    .executeTakeFirst();
  if (first === undefined || first.user_id !== input.userId) throw versionNotFound();
  let query = db.selectFrom('documents').selectAll().where('id', '=', first.document_id);
  if (isPostgres(deps)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  const version = await db
    .selectFrom('document_versions')
    .selectAll()
    .where('id', '=', input.versionId)
    .executeTakeFirst();
  if (row === undefined || version === undefined) throw versionNotFound();
  return { row, version };
}

async function flowOf(db: ActionDb, documentId: string) {
  const flow =
    (await db
      .selectFrom('sign_flows')
      .selectAll()
      .where('document_id', '=', documentId)
      .executeTakeFirst()) ?? null;
  const participants =
    flow === null
      ? []
      : await db
          .selectFrom('sign_flow_participants')
          .selectAll()
          .where('sign_flow_id', '=', flow.id)
          .orderBy('position')
          .execute();
  return { flow, participants };
}

function metaOf(deps: AppDeps, input: ConfirmInput): ActionMeta {
  return { actorId: input.userId, ip: input.ip, userAgent: input.userAgent, now: deps.clock() };
}

function audit(db: ActionDb, meta: ActionMeta, documentId: string, action: string, entry: object = {}) {
  const { sha256Before, sha256After, ...details } = entry as {
    sha256Before?: string;
    sha256After?: string;
  } & Record<string, unknown>;
  return recordAudit(baseDb(db), {
    documentId,
    actorId: meta.actorId,
    action,
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: meta.now,
    sha256Before: sha256Before ?? null,
    sha256After: sha256After ?? null,
    details,
  });
}

async function answer(
  db: ActionDb,
  versionId: string,
  state: DocumentVersionState,
  now: Date,
  extra: Partial<Pick<DocumentVersionRow, 'file_key' | 'sha256_before' | 'sha256_after'>> = {},
): Promise<void> {
  await db
    .updateTable('document_versions')
    .set({ state, answered_at: now.toISOString(), ...extra })
    .where('id', '=', versionId)
    .execute();
}

const beginEvent = (version: DocumentVersionRow): LifecycleEvent =>
  version.participant_id === null
    ? { type: 'solo.begin' }
    : { type: 'sign.begin', participantId: version.participant_id };

const completeEvent = (version: DocumentVersionRow): LifecycleEvent =>
  version.participant_id === null
    ? { type: 'solo.complete' }
    : { type: 'sign.complete', participantId: version.participant_id };

// Whether completing the signature begun on `record` leaves the document signed: the flow's last signature.
function endsTheFlow(record: Parameters<typeof canApply>[0], version: DocumentVersionRow): boolean {
  const event = completeEvent(version);
  return canApply(record, event) && transition(record, event).after.state === 'signed';
}

const abortEvent = (version: DocumentVersionRow): LifecycleEvent =>
  version.participant_id === null
    ? { type: 'solo.abort' }
    : { type: 'sign.abort', participantId: version.participant_id };

// Still the person the request was made for: the owner (solo), or the participant row of this user.
function isStillTheirs(
  row: DocumentRow,
  version: DocumentVersionRow,
  participants: readonly ParticipantRow[],
  user: { id: string; email: string },
): boolean {
  if (version.participant_id === null) return row.owner_id === user.id;
  const participant = participants.find((entry) => entry.id === version.participant_id);
  if (participant === undefined) return false;
  return participant.user_id === null
    ? participant.email.toLowerCase() === user.email.toLowerCase()
    : participant.user_id === user.id;
}

// ------------------------------------------------------------------ step 1: begin

type Begun = {
  kind: 'begun';
  version: DocumentVersionRow;
  documentId: string;
  sourceKey: string;
  supersededKey: string | null;
  placement: SignaturePlacement;
  // Set for an inline placement of a flow that also has a signature page before it (see signing-placement).
  shift: { signPageNumber: number; documentPages: number } | null;
  signatureIndex: number;
  signer: { userId: string; fullName: string; email: string };
  smartCardType: SmartCardType;
  // The signer's profile language, which the stamp is written in.
  locale: StampLocale;
  // Completing this signature ends the flow (or it is the owner's own): the file gets its document time-stamp.
  completesFlow: boolean;
  // The placement columns the pending version had, put back if it goes back to pending.
  pendingColumns: ResolvedPlacement['columns'];
};

type Step1 = Begun | { kind: 'answered'; outcome: SettledOutcome } | { kind: 'busy' };

async function begin(deps: AppDeps, input: ConfirmInput, meta: ActionMeta): Promise<Step1> {
  return deps.db.transaction().execute(async (trx): Promise<Step1> => {
    const db: ActionDb = trx;
    const { row, version } = await lockVersion(deps, db, input);
    if (version.state !== 'pending') return { kind: 'answered', outcome: 'already_answered' };
    const nowIso = meta.now.toISOString();
    if (version.expires_at <= nowIso) {
      await answer(db, version.id, 'cancelled', meta.now);
      return { kind: 'answered', outcome: 'cancelled' };
    }
    // Another signature of this document is being applied: wait for it rather than fail.
    if (row.state === 'signing') return { kind: 'busy' };

    const user = await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name', 'locale'])
      .where('id', '=', input.userId)
      .executeTakeFirstOrThrow();
    const { flow, participants } = await flowOf(db, row.id);
    const record = { ...recordOf(row, flow, participants), signingParticipantId: null };
    const event = beginEvent(version);
    if (!isStillTheirs(row, version, participants, user) || !canApply(record, event)) {
      // Refused, cancelled, edited or someone else's turn since the request was made.
      await answer(db, version.id, 'cancelled', meta.now);
      await audit(db, meta, row.id, 'document.sign_cancelled', {
        versionId: version.id,
        reason: 'not_allowed',
      });
      return { kind: 'answered', outcome: 'cancelled' };
    }
    if (await isSignLimitReached(db, deps.config.signLimits, user.id, meta.now)) {
      await answer(db, version.id, 'sign_limit_exceeded', meta.now);
      await audit(db, meta, row.id, 'document.sign_limit_exceeded', { versionId: version.id });
      return { kind: 'answered', outcome: 'sign_limit_exceeded' };
    }

    let resolved: ResolvedPlacement | null;
    if (flow === null) {
      resolved = soloPlacement(version);
    } else {
      const placement = await db
        .selectFrom('signature_placements')
        .select(['page_number', 'top_fraction', 'left_fraction'])
        .where('participant_id', '=', version.participant_id ?? '')
        .executeTakeFirst();
      resolved = flowPlacement(flow, placement);
    }
    if (resolved === null) {
      await answer(db, version.id, 'cancelled', meta.now);
      await audit(db, meta, row.id, 'document.sign_cancelled', {
        versionId: version.id,
        reason: 'no_placement',
      });
      return { kind: 'answered', outcome: 'cancelled' };
    }
    // Boxes already on the signature page: where this one goes on it.
    const onSignaturePage = await db
      .selectFrom('document_versions')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('document_id', '=', row.id)
      .where('state', '=', 'signed')
      .where('participant_id', 'is not', null)
      .where('page_number', 'is', null)
      .executeTakeFirst();

    const step = transition(record, event);
    await persistTransition(db, { documentId: row.id, flowId: flow?.id ?? null }, step, meta);
    await db
      .updateTable('document_versions')
      .set({ state: 'signing', answered_at: nowIso, ...resolved.columns })
      .where('id', '=', version.id)
      .execute();
    return {
      kind: 'begun',
      version: { ...version, state: 'signing', answered_at: nowIso, ...resolved.columns },
      documentId: row.id,
      sourceKey: row.signed_file_key ?? row.file_key,
      supersededKey: row.signed_file_key,
      placement: resolved.placement,
      shift:
        flow !== null && resolved.placement.kind === 'inline' && row.signed_file_key !== null
          ? { signPageNumber: flow.sign_page_number, documentPages: row.page_count }
          : null,
      signatureIndex: Number(onSignaturePage?.n ?? 0),
      signer: { userId: user.id, fullName: user.full_name, email: user.email },
      smartCardType: version.smart_card_type as SmartCardType,
      locale: toStampLocale(user.locale),
      completesFlow: endsTheFlow({ ...step.after, signingParticipantId: version.participant_id }, version),
      pendingColumns: {
        sign_page_number: version.sign_page_number,
        page_number: version.page_number,
        top_fraction: version.top_fraction,
        left_fraction: version.left_fraction,
      },
    };
  });
}

// ------------------------------------------------------------------ step 2: sign

type Signed = { key: string; sha256Before: string; sha256After: string };

/** Where a signature's file is stored (also the demo data's signed files, server/seed.ts). */
export function signedKey(documentId: string, versionId: string): string {
  return `documents/${documentId}/signed/${versionId}.pdf`;
}

async function sign(deps: AppDeps, begun: Begun, now: Date): Promise<Signed> {
  const pdf = await deps.store.getBuffer(begun.sourceKey);
  const placement =
    begun.shift === null
      ? begun.placement
      : await shiftPastSignaturePages(begun.placement, { ...begun.shift, currentPdf: pdf });
  const result = await deps.signer.sign({
    pdf,
    signer: begun.signer,
    smartCardType: begun.smartCardType,
    locale: begun.locale,
    completesFlow: begun.completesFlow,
    location: begun.version.location,
    reason: begun.version.reason,
    signedAt: now,
    placement,
    signatureIndex: begun.signatureIndex,
  });
  const key = signedKey(begun.documentId, begun.version.id);
  await deps.store.put(key, Buffer.from(result.pdf), 'application/pdf');
  return { key, sha256Before: result.sha256Before, sha256After: result.sha256After };
}

// ------------------------------------------------------------------ step 3: complete or abort

// The version must still be `signing`: the expiry job aborts one left behind by a crashed process, and
// then this late result is thrown away.
async function lockSigning(deps: AppDeps, db: ActionDb, input: ConfirmInput) {
  const { row, version } = await lockVersion(deps, db, input);
  if (version.state !== 'signing') return null;
  const { flow, participants } = await flowOf(db, row.id);
  const record = { ...recordOf(row, flow, participants), signingParticipantId: version.participant_id };
  return { row, version, flow, participants, record };
}

async function complete(
  deps: AppDeps,
  input: ConfirmInput,
  begun: Begun,
  signed: Signed,
  meta: ActionMeta,
): Promise<SettledOutcome> {
  return deps.db.transaction().execute(async (trx): Promise<SettledOutcome> => {
    const db: ActionDb = trx;
    const locked = await lockSigning(deps, db, input);
    if (locked === null) {
      // Written again after a commit whose answer the restart lost, it finds its own signature done.
      const ended = await db
        .selectFrom('document_versions')
        .select(['state', 'file_key'])
        .where('id', '=', input.versionId)
        .executeTakeFirst();
      return ended?.state === 'signed' && ended.file_key === signed.key ? 'signed' : 'cancelled';
    }
    const { row, version, flow, record } = locked;
    const event = completeEvent(version);
    if (!canApply(record, event)) {
      // The flow failed meanwhile (flow.fail): the signature is not kept.
      await answer(db, version.id, 'cancelled', meta.now);
      await audit(db, meta, row.id, 'document.sign_cancelled', {
        versionId: version.id,
        reason: 'flow_ended',
      });
      return 'cancelled';
    }
    const step = transition(record, event);
    await persistTransition(db, { documentId: row.id, flowId: flow?.id ?? null }, step, meta);
    await db
      .updateTable('documents')
      .set({ signed_file_key: signed.key, updated_at: meta.now.toISOString() })
      .where('id', '=', row.id)
      .execute();
    await answer(db, version.id, 'signed', meta.now, {
      file_key: signed.key,
      sha256_before: signed.sha256Before,
      sha256_after: signed.sha256After,
    });
    await audit(db, meta, row.id, SIGNED_ACTION, {
      versionId: version.id,
      participantId: version.participant_id,
      smartCardType: version.smart_card_type,
      location: version.location,
      reason: version.reason,
      state: step.after.state,
      sha256Before: signed.sha256Before,
      sha256After: signed.sha256After,
    });
    // The viewer and the previews show the stamps: the page images are rendered again from the new file.
    await queueRenderPages(db, row.id, meta.now);
    return 'signed';
  });
}

async function abort(
  deps: AppDeps,
  input: ConfirmInput,
  meta: ActionMeta,
  failure: { state: 'presign_error' | 'cancelled'; reason: string },
): Promise<SettledOutcome> {
  return deps.db.transaction().execute(async (trx): Promise<SettledOutcome> => {
    const db: ActionDb = trx;
    const locked = await lockSigning(deps, db, input);
    if (locked === null) return 'cancelled';
    const { row, version, flow, record } = locked;
    const event = abortEvent(version);
    if (canApply(record, event)) {
      await persistTransition(
        db,
        { documentId: row.id, flowId: flow?.id ?? null },
        transition(record, event),
        meta,
      );
    }
    await answer(db, version.id, failure.state, meta.now);
    await audit(db, meta, row.id, 'document.sign_failed', { versionId: version.id, reason: failure.reason });
    return failure.state;
  });
}

// The lifecycle goes back as for any failure, but the request stays open: the signer did nothing wrong
// and confirming again once the service is back signs.
async function abortForOutage(
  deps: AppDeps,
  input: ConfirmInput,
  meta: ActionMeta,
  begun: Begun,
  reason: UnavailableService,
): Promise<ConfirmResult> {
  return deps.db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const db: ActionDb = trx;
    const locked = await lockSigning(deps, db, input);
    if (locked === null) return { outcome: 'cancelled' };
    const { row, version, flow, record } = locked;
    const event = abortEvent(version);
    if (canApply(record, event)) {
      await persistTransition(
        db,
        { documentId: row.id, flowId: flow?.id ?? null },
        transition(record, event),
        meta,
      );
    }
    await db
      .updateTable('document_versions')
      .set({ state: 'pending', answered_at: null, ...begun.pendingColumns })
      .where('id', '=', version.id)
      .execute();
    await audit(db, meta, row.id, 'document.sign_failed', { versionId: version.id, reason });
    return { outcome: 'service_unavailable', reason };
  });
}

async function deleteQuietly(deps: AppDeps, key: string): Promise<void> {
  try {
    await deps.store.delete(key);
  } catch (error) {
    deps.log.warn({ key, error: errorText(error) }, 'stored file not removed');
  }
}

function isPresignError(error: unknown): boolean {
  return (
    error instanceof PresignError ||
    (error instanceof Error && (error as Error & { code?: unknown }).code === 'presign_error')
  );
}

// By name too: an error that crossed a worker's or a child process' boundary is no longer an instance.
function unavailableService(error: unknown): UnavailableService | null {
  if (!(error instanceof Error)) return null;
  if (error instanceof TimeStampUnavailableError || error.name === 'TimeStampUnavailableError') {
    return 'time_stamp_unavailable';
  }
  if (error instanceof RevocationUnavailableError || error.name === 'RevocationUnavailableError') {
    return 'revocation_unavailable';
  }
  return null;
}

// ------------------------------------------------------------------ the entry points

/**
 * Confirms a request to sign; every confirmation is counted by how it ended (GET /metrics). A request
 * that is not the caller's (an ApiError) is no signature and is not counted. `service_unavailable` (the
 * TSA or the OCSP responder is down) leaves the request pending: the caller says "try again later".
 */
export async function confirmDocumentVersion(deps: AppDeps, input: ConfirmInput): Promise<ConfirmResult> {
  try {
    const result = await confirm(deps, input);
    deps.metrics.signatures.inc({ outcome: result.outcome });
    return result;
  } catch (error) {
    if (!(error instanceof ApiError)) deps.metrics.signatures.inc({ outcome: 'error' });
    throw error;
  }
}

async function confirm(deps: AppDeps, input: ConfirmInput): Promise<ConfirmResult> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  let begun: Begun | null = null;
  for (let attempt = 0; begun === null; attempt += 1) {
    const step = await begin(deps, input, metaOf(deps, input));
    if (step.kind === 'answered') return { outcome: step.outcome };
    if (step.kind === 'begun') {
      begun = step;
      break;
    }
    if (Date.now() >= deadline) {
      const outcome = await deps.db.transaction().execute(async (trx) => {
        const { row, version } = await lockVersion(deps, trx, input);
        if (version.state !== 'pending') return 'already_answered' as const;
        const meta = metaOf(deps, input);
        await answer(trx, version.id, 'cancelled', meta.now);
        await audit(trx, meta, row.id, 'document.sign_cancelled', { versionId: version.id, reason: 'busy' });
        return 'cancelled' as const;
      });
      return { outcome };
    }
    await sleep(BUSY_BACKOFF_MS[Math.min(attempt, BUSY_BACKOFF_MS.length - 1)] ?? 1000);
  }

  let signed: Signed;
  try {
    signed = await retryWhileDatabaseAway(() => sign(deps, begun, deps.clock()), {
      tries: SIGN_TRIES,
      delayMs: SIGN_DELAY_MS,
      onAway: (error) =>
        deps.log.warn(
          { versionId: input.versionId, error: errorText(error) },
          'the database is unavailable while signing; signing again shortly',
        ),
    });
  } catch (error) {
    const unavailable = isDatabaseUnavailable(error) ? 'database_unavailable' : unavailableService(error);
    if (unavailable !== null) {
      deps.log.warn(
        { versionId: input.versionId, error: errorText(error) },
        'signing service unavailable; the request stays pending',
      );
      return whileDatabaseAway(deps, input, () =>
        abortForOutage(deps, input, metaOf(deps, input), begun, unavailable),
      );
    }
    const presign = isPresignError(error);
    if (!presign) {
      deps.log.error({ versionId: input.versionId, error: errorText(error) }, 'signing failed');
    }
    const outcome = await whileDatabaseAway(deps, input, () =>
      abort(deps, input, metaOf(deps, input), {
        state: presign ? 'presign_error' : 'cancelled',
        reason: presign ? 'presign_error' : 'error',
      }),
    );
    return { outcome };
  }

  let outcome: SettledOutcome;
  try {
    outcome = await whileDatabaseAway(deps, input, () =>
      complete(deps, input, begun, signed, metaOf(deps, input)),
    );
  } catch (error) {
    await deleteQuietly(deps, signed.key);
    // The document must not stay in `signing`: abort (this is a no-op if the version already ended).
    await whileDatabaseAway(deps, input, () =>
      abort(deps, input, metaOf(deps, input), { state: 'cancelled', reason: 'error' }),
    ).catch(() => undefined);
    throw error;
  }
  if (outcome !== 'signed') {
    await deleteQuietly(deps, signed.key);
    return { outcome };
  }
  // The new file holds every earlier signature (incremental updates), so the one it replaces goes.
  if (begun.supersededKey !== null) await deleteQuietly(deps, begun.supersededKey);
  return { outcome };
}

export async function denyDocumentVersion(
  deps: AppDeps,
  input: ConfirmInput,
): Promise<{ outcome: DenyOutcome }> {
  const meta = metaOf(deps, input);
  const outcome = await deps.db.transaction().execute(async (trx): Promise<DenyOutcome> => {
    const { row, version } = await lockVersion(deps, trx, input);
    if (version.state !== 'pending') return 'already_answered';
    if (version.expires_at <= meta.now.toISOString()) {
      await answer(trx, version.id, 'cancelled', meta.now);
      return 'already_answered';
    }
    await answer(trx, version.id, 'denied', meta.now);
    await audit(trx, meta, row.id, 'document.sign_denied', { versionId: version.id });
    return 'denied';
  });
  return { outcome };
}

// ------------------------------------------------------------------ what the identity app lists

export type SignerVersion = {
  id: string;
  documentId: string;
  filename: string;
  signerName: string;
  smartCardType: SmartCardType;
  location: string;
  reason: string;
  createdAt: string;
};

function versionsQuery(deps: AppDeps, userId: string) {
  return deps.db
    .selectFrom('document_versions')
    .innerJoin('documents', 'documents.id', 'document_versions.document_id')
    .innerJoin('users', 'users.id', 'document_versions.user_id')
    .select([
      'document_versions.id',
      'document_versions.document_id',
      'document_versions.smart_card_type',
      'document_versions.location',
      'document_versions.reason',
      'document_versions.created_at',
      'document_versions.state',
      'documents.original_filename',
      'users.full_name',
    ])
    .where('document_versions.user_id', '=', userId);
}

type VersionListRow = {
  id: string;
  document_id: string;
  smart_card_type: string;
  location: string;
  reason: string;
  created_at: string;
  original_filename: string;
  full_name: string;
};

function toSignerVersion(row: VersionListRow): SignerVersion {
  return {
    id: row.id,
    documentId: row.document_id,
    filename: row.original_filename,
    signerName: row.full_name,
    smartCardType: row.smart_card_type as SmartCardType,
    location: row.location,
    reason: row.reason,
    createdAt: row.created_at,
  };
}

/** The user's requests still waiting for an answer, newest first. */
export async function pendingVersionsFor(deps: AppDeps, userId: string): Promise<SignerVersion[]> {
  await expirePendingVersions(deps.db, deps.clock(), userId);
  const rows = await versionsQuery(deps, userId)
    .where('document_versions.state', '=', 'pending')
    .orderBy('document_versions.created_at', 'desc')
    .orderBy('document_versions.id')
    .execute();
  return rows.map(toSignerVersion);
}

/** One of the user's requests with its state (`signing` while the signature is applied), or null. */
export async function versionForSigner(
  deps: AppDeps,
  versionId: string,
  userId: string,
): Promise<(SignerVersion & { state: DocumentVersionState }) | null> {
  await expirePendingVersions(deps.db, deps.clock(), userId);
  const row = await versionsQuery(deps, userId)
    .where('document_versions.id', '=', versionId)
    .executeTakeFirst();
  return row === undefined ? null : { ...toSignerVersion(row), state: row.state };
}
