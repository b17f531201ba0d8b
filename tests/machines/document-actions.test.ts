import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { bulkActionsOf, documentActionsOf, rowActionsOf } from '../../machines/document-actions-rules';
import {
  documentActionsMachine,
  type DocumentsInput,
  type OneDocumentInput,
  type RefuseInput,
} from '../../machines/document-actions.machine';
import { sampleDocument } from '../samples';
import { controlledPromise, flush } from './support';

const PLAIN = sampleDocument('d1');
const SIGNED = sampleDocument('d2', { state: 'signed' });
const FLOW = sampleDocument('d3', {
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserCanRefuse: true,
  currentUserCanCancel: true,
});
const NOT_DELETABLE = sampleDocument('d4', { isOwner: false, currentUserCanDelete: false });
const SIGNED_TOO = sampleDocument('d5', { state: 'signed' });

function start() {
  const calls = {
    archiveDocument: controlledPromise<void, OneDocumentInput>(),
    archiveDocuments: controlledPromise<void, DocumentsInput>(),
    deleteDocument: controlledPromise<void, OneDocumentInput>(),
    deleteDocuments: controlledPromise<void, DocumentsInput>(),
    refuseSignFlow: controlledPromise<void, RefuseInput>(),
    approveDocument: controlledPromise<void, OneDocumentInput>(),
    rejectDocument: controlledPromise<void, OneDocumentInput>(),
    cancelSignFlow: controlledPromise<void, OneDocumentInput>(),
    downloadDocuments: controlledPromise<void, DocumentsInput>(),
  };
  const effects = {
    refreshList: vi.fn(),
    refreshProfile: vi.fn(),
    openDialog: vi.fn(),
    closeModal: vi.fn(),
    logDownloadFailure: vi.fn(),
  };
  const machine = documentActionsMachine.provide({
    actors: Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, call.logic])),
    actions: {
      refreshList: () => effects.refreshList(),
      refreshProfile: () => effects.refreshProfile(),
      openDialog: (_, params) => effects.openDialog(params.name),
      closeModal: () => effects.closeModal(),
      logDownloadFailure: (_, params) => effects.logDownloadFailure(params),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, calls, effects };
}

describe('document-actions rules', () => {
  it('offers a row nothing once the user archived it, whatever its flags', () => {
    expect(rowActionsOf(PLAIN.attributes)).toEqual(['archive', 'delete']);
    expect(rowActionsOf({ ...PLAIN.attributes, currentUserArchived: true })).toEqual([]);
    expect(rowActionsOf(FLOW.attributes)).toEqual(['archive', 'delete', 'refuse', 'cancelSignFlow']);
    expect(rowActionsOf(SIGNED.attributes)).toContain('download');
  });

  it('keeps delete and download on an archived document’s page, and hides the rest (spec 000 §6)', () => {
    const archivedSignedFlow = {
      ...FLOW.attributes,
      state: 'signed' as const,
      currentUserArchived: true,
      currentUserCanArchive: false,
    };
    expect(documentActionsOf(archivedSignedFlow)).toEqual(['delete', 'download']);
    expect(rowActionsOf(archivedSignedFlow)).toEqual([]);
    expect(documentActionsOf(FLOW.attributes)).toEqual(rowActionsOf(FLOW.attributes));
  });

  it('offers bulk delete only when every document allows it, download when one is signed', () => {
    expect(bulkActionsOf([PLAIN, SIGNED])).toEqual(['archive', 'delete', 'download']);
    expect(bulkActionsOf([PLAIN, NOT_DELETABLE])).toEqual(['archive']);
    expect(bulkActionsOf([PLAIN, FLOW])).toEqual(['archive', 'delete']);
  });
});

describe('document-actions', () => {
  it('archives one document after confirmation, refreshes, stays busy 1000 ms, then closes', async () => {
    const { actor, clock, calls, effects } = start();
    actor.send({ type: 'action.request', action: 'archive', documents: [PLAIN] });
    expect(actor.getSnapshot().matches({ dialog: 'confirming' })).toBe(true);
    expect(calls.archiveDocument.calls).toHaveLength(0);

    actor.send({ type: 'action.confirm' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.archiveDocument.last().input).toEqual({ documentId: 'd1' });
    calls.archiveDocument.last().result.resolve();
    await flush();

    expect(effects.refreshList).toHaveBeenCalledTimes(1);
    expect(effects.refreshProfile).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    clock.increment(999);
    expect(effects.closeModal).not.toHaveBeenCalled();
    clock.increment(1);
    expect(effects.closeModal).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('uses the bulk call for several documents', () => {
    const { actor, calls } = start();
    actor.send({ type: 'action.request', action: 'delete', documents: [PLAIN, SIGNED] });
    actor.send({ type: 'action.confirm' });
    expect(calls.deleteDocuments.last().input).toEqual({ documentIds: ['d1', 'd2'] });
    expect(calls.deleteDocument.calls).toHaveLength(0);
  });

  it('ignores a request the rules do not allow', () => {
    const { actor } = start();
    actor.send({ type: 'action.request', action: 'delete', documents: [PLAIN, NOT_DELETABLE] });
    actor.send({ type: 'action.request', action: 'approve', documents: [PLAIN] });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('refreshes the list when a document changed meanwhile, names what blocked it, and does not retry', async () => {
    const { actor, calls, effects } = start();
    actor.send({ type: 'action.request', action: 'archive', documents: [PLAIN, SIGNED] });
    actor.send({ type: 'action.confirm' });
    calls.archiveDocuments
      .last()
      .result.reject({ code: 'bulk_blocked', status: 409, blockedIds: ['d2', 42] });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'stale' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('bulk_blocked');
    expect(actor.getSnapshot().context.blockedIds).toEqual(['d2']);
    expect(effects.refreshList).toHaveBeenCalledTimes(1);
    expect(effects.refreshProfile).not.toHaveBeenCalled();

    // The selection on screen is stale: confirming again would fail the same way.
    expect(actor.getSnapshot().can({ type: 'action.confirm' })).toBe(false);
    actor.send({ type: 'action.confirm' });
    expect(calls.archiveDocuments.calls).toHaveLength(1);
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.blockedIds).toEqual([]);
  });

  it('keeps a failure code and retries after an ordinary failure', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'action.request', action: 'archive', documents: [PLAIN, SIGNED] });
    actor.send({ type: 'action.confirm' });
    calls.archiveDocuments.last().result.reject({ code: 'server', status: 500 });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('server');
    actor.send({ type: 'action.confirm' });
    expect(calls.archiveDocuments.calls).toHaveLength(2);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });

  it('does not refresh the list after an ordinary failure', async () => {
    const { actor, calls, effects } = start();
    actor.send({ type: 'action.request', action: 'delete', documents: [PLAIN] });
    actor.send({ type: 'action.confirm' });
    calls.deleteDocument.last().result.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('network');
    expect(effects.refreshList).not.toHaveBeenCalled();
  });

  it('refuses to send a reason of 128 characters and sends a shorter one trimmed', () => {
    const { actor, calls } = start();
    actor.send({ type: 'action.request', action: 'refuse', documents: [FLOW] });
    actor.send({ type: 'reason.changed', reason: 'x'.repeat(128) });
    expect(actor.getSnapshot().matches({ dialog: { confirming: 'invalid' } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'action.confirm' })).toBe(false);
    actor.send({ type: 'action.confirm' });
    expect(calls.refuseSignFlow.calls).toHaveLength(0);

    actor.send({ type: 'reason.changed', reason: ` ${'y'.repeat(127)} ` });
    expect(actor.getSnapshot().matches({ dialog: { confirming: 'invalid' } })).toBe(true);
    actor.send({ type: 'reason.changed', reason: ' Wrong amount ' });
    actor.send({ type: 'action.confirm' });
    expect(calls.refuseSignFlow.last().input).toEqual({ documentId: 'd3', reason: 'Wrong amount' });
  });

  it('keeps document_already_signed as the cancel failure code', async () => {
    const { actor, calls, effects } = start();
    actor.send({ type: 'action.request', action: 'cancelSignFlow', documents: [FLOW] });
    actor.send({ type: 'action.confirm' });
    calls.cancelSignFlow.last().result.reject({ code: 'document_already_signed', status: 409 });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({
      action: 'cancelSignFlow',
      errorCode: 'document_already_signed',
    });
    expect(effects.refreshList).toHaveBeenCalledTimes(1);
  });

  it('downloads signed documents at once, and asks first for a mixed selection', async () => {
    const { actor, calls, effects } = start();
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    expect(actor.getSnapshot().matches({ dialog: 'downloading' })).toBe(true);
    calls.downloadDocuments.last().result.resolve();
    await flush();
    expect(effects.closeModal).toHaveBeenCalledTimes(1);

    actor.send({ type: 'action.request', action: 'download', documents: [PLAIN, SIGNED] });
    expect(actor.getSnapshot().matches({ dialog: 'confirming' })).toBe(true);
    actor.send({ type: 'action.confirm' });
    expect(calls.downloadDocuments.last().input).toEqual({ documentIds: ['d2'] });
    calls.downloadDocuments.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(effects.logDownloadFailure).toHaveBeenCalledWith({ code: 'not_found', blockedIds: [] });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(effects.refreshList).not.toHaveBeenCalled();
  });

  it('forgets a request the user dismissed', () => {
    const { actor } = start();
    actor.send({
      type: 'action.request',
      action: 'approve',
      documents: [sampleDocument('d5', { state: 'in_review', currentUserCanReview: true })],
    });
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.documents).toEqual([]);
  });
});

describe('document-actions: a download and the dialogs after it', () => {
  it('leaves the modal alone when a download ends after its progress dialog was closed', async () => {
    const { actor, calls, effects } = start();
    const downloads = calls.downloadDocuments.calls;
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    expect(effects.openDialog).toHaveBeenLastCalledWith('confirm');
    // The person closed the progress dialog: whatever opens next (an upload, the welcome screen) is not it.
    actor.send({ type: 'action.dismiss' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(downloads[0]?.signal.aborted).toBe(false);

    downloads[0]?.result.resolve();
    await flush();
    expect(effects.closeModal).not.toHaveBeenCalled();
  });

  it('opens an action asked for during a download at once, lets the download go on, and keeps its dialog open', async () => {
    const { actor, calls, effects } = start();
    const downloads = calls.downloadDocuments.calls;
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    actor.send({ type: 'action.dismiss' });
    actor.send({ type: 'action.request', action: 'archive', documents: [PLAIN] });
    expect(effects.openDialog).toHaveBeenLastCalledWith('archive');
    expect(actor.getSnapshot().context).toMatchObject({ action: 'archive', documents: [PLAIN] });
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.signal.aborted).toBe(false);

    downloads[0]?.result.resolve();
    await flush();
    expect(effects.closeModal).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.action).toBe('archive');
    actor.send({ type: 'action.confirm' });
    expect(calls.archiveDocument.last().input).toEqual({ documentId: 'd1' });
  });

  it('takes over from the progress dialog too, as a request does while an action settles', async () => {
    const { actor, calls, effects } = start();
    const downloads = calls.downloadDocuments.calls;
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    actor.send({ type: 'action.request', action: 'delete', documents: [PLAIN] });
    expect(effects.openDialog).toHaveBeenLastCalledWith('delete');
    expect(downloads[0]?.signal.aborted).toBe(false);
    downloads[0]?.result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(effects.logDownloadFailure).toHaveBeenCalledWith({ code: 'not_found', blockedIds: [] });
    expect(effects.closeModal).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.action).toBe('delete');
  });

  it('runs a download asked for during another after it, and closes the progress dialog after the last', async () => {
    const { actor, calls, effects } = start();
    const downloads = calls.downloadDocuments.calls;
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    actor.send({ type: 'action.dismiss' });
    actor.send({ type: 'action.request', action: 'download', documents: [SIGNED_TOO] });
    expect(effects.openDialog).toHaveBeenCalledTimes(2);
    actor.send({ type: 'action.dismiss' });
    // A mixed selection, once confirmed, waits too (its unsigned document left out).
    actor.send({ type: 'action.request', action: 'download', documents: [PLAIN, SIGNED_TOO, SIGNED] });
    actor.send({ type: 'action.confirm' });
    expect(effects.openDialog).toHaveBeenCalledTimes(3);
    // One at a time: a second batch of links would interrupt the first's.
    expect(downloads.map((download) => download.input)).toEqual([{ documentIds: ['d2'] }]);

    downloads[0]?.result.resolve();
    await flush();
    // Asked for twice while it waited, d5 is downloaded once.
    expect(downloads.map((download) => download.input)).toEqual([
      { documentIds: ['d2'] },
      { documentIds: ['d5', 'd2'] },
    ]);
    expect(effects.closeModal).not.toHaveBeenCalled();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);

    downloads[1]?.result.resolve();
    await flush();
    expect(effects.closeModal).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.action).toBeNull();
  });
});
