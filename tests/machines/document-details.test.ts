import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { documentDetailsMachine, type SignFlowParticipants } from '../../machines/document-details.machine';
import { SAMPLE_SIGN_FLOW_PARTICIPANTS, sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { controlledPromise, flush } from './support';

const FLOW_DOCUMENT = sampleDocument('d1', { state: 'awaiting_signs', isSignFlow: true });

function startDetails(selectedIds: string[]) {
  const fetchDocument = controlledPromise<DocumentResource, { documentId: string }>();
  const fetchSignFlow = controlledPromise<SignFlowParticipants, { documentId: string }>();
  const machine = documentDetailsMachine.provide({
    actors: { fetchDocument: fetchDocument.logic, fetchSignFlow: fetchSignFlow.logic },
  });
  const actor = createActor(machine, { input: { selectedIds } }).start();
  return { actor, fetchDocument, fetchSignFlow };
}

describe('document details', () => {
  it('shows nothing without a selection and the count for several', () => {
    const { actor, fetchDocument } = startDetails([]);
    expect(actor.getSnapshot().value).toBe('none');
    actor.send({ type: 'selection.changed', ids: ['d1', 'd2'] });
    expect(actor.getSnapshot().value).toBe('several');
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d1', 'd2']);
    expect(fetchDocument.calls).toHaveLength(0);
  });

  it('loads the one selected document, then the participants of its sign flow', async () => {
    const { actor, fetchDocument, fetchSignFlow } = startDetails(['d1']);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchDocument.last().input).toEqual({ documentId: 'd1' });
    fetchDocument.last().result.resolve(FLOW_DOCUMENT);
    await flush();
    expect(actor.getSnapshot().matches({ one: 'loadingParticipants' })).toBe(true);
    expect(fetchSignFlow.last().input).toEqual({ documentId: 'd1' });
    fetchSignFlow.last().result.resolve(SAMPLE_SIGN_FLOW_PARTICIPANTS);
    await flush();
    expect(actor.getSnapshot().matches({ one: 'participants' })).toBe(true);
    expect(actor.getSnapshot().context.participants?.signatories).toHaveLength(2);
  });

  it('does not ask for participants of a document without a sign flow', async () => {
    const { actor, fetchDocument, fetchSignFlow } = startDetails(['d1']);
    fetchDocument.last().result.resolve(sampleDocument('d1'));
    await flush();
    expect(actor.getSnapshot().matches({ one: 'withoutSignFlow' })).toBe(true);
    expect(fetchSignFlow.calls).toHaveLength(0);
  });

  it('keeps the document when the participants cannot be loaded', async () => {
    const { actor, fetchDocument, fetchSignFlow } = startDetails(['d1']);
    fetchDocument.last().result.resolve(FLOW_DOCUMENT);
    await flush();
    fetchSignFlow.last().result.reject({ code: 'not_implemented', status: 501 });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ one: 'participantsFailed' })).toBe(true);
    expect(snapshot.context.document?.id).toBe('d1');
    expect(snapshot.context.participantsErrorCode).toBe('not_implemented');
  });

  it('fails with the code when the document cannot be loaded, and reloads on request', async () => {
    const { actor, fetchDocument } = startDetails(['d1']);
    fetchDocument.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('not_found');
    actor.send({ type: 'details.reload' });
    expect(fetchDocument.calls).toHaveLength(2);
  });

  it('follows a new selection while loading and ignores the same one', async () => {
    const { actor, fetchDocument } = startDetails(['d1']);
    actor.send({ type: 'selection.changed', ids: ['d1'] });
    expect(fetchDocument.calls).toHaveLength(1);
    actor.send({ type: 'selection.changed', ids: ['d2'] });
    expect(fetchDocument.calls).toHaveLength(2);
    expect(fetchDocument.last().input).toEqual({ documentId: 'd2' });
    // The first answer arrives late: its actor was stopped, so it cannot show the wrong document.
    fetchDocument.calls[0]?.result.resolve(sampleDocument('d1'));
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    fetchDocument.last().result.resolve(sampleDocument('d2'));
    await flush();
    expect(actor.getSnapshot().context.document?.id).toBe('d2');
    actor.send({ type: 'selection.changed', ids: [] });
    expect(actor.getSnapshot().value).toBe('none');
    expect(actor.getSnapshot().context.document).toBeNull();
  });
});
