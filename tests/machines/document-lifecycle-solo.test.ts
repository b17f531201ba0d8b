// The owner signing a document without a flow (docs/decisions.md "Signing on the server"): the
// lifecycle's solo events, and the flag and the lists that follow from them.
import { describe, expect, it } from 'vitest';
import {
  applyLifecycleEvent,
  canApply,
  type LifecycleEvent,
  type LifecycleRecord,
} from '../../machines/document-lifecycle';
import { documentPermissions, isInCategory } from '../../server/documents/permissions';

const UPLOADED: LifecycleRecord = { state: 'uploaded', flow: null, participants: [] };
const ADA = { id: 'user-ada', email: 'ada@paraph.test' };
const BOB = { id: 'user-bob', email: 'bob@paraph.test' };

function apply(record: LifecycleRecord, event: LifecycleEvent): LifecycleRecord {
  const result = applyLifecycleEvent(record, event);
  expect(result.accepted, `${event.type} from ${record.state}`).toBe(true);
  return result.next;
}

describe('signing alone', () => {
  it('begins from uploaded and ends signed, or back in uploaded when aborted', () => {
    const signing = apply(UPLOADED, { type: 'solo.begin' });
    expect(signing).toMatchObject({ state: 'signing', flow: null, participants: [] });
    expect(apply(signing, { type: 'solo.complete' }).state).toBe('signed');
    expect(apply(signing, { type: 'solo.abort' }).state).toBe('uploaded');
  });

  it('one signature at a time: no second begin, no flow, no delete while it is applied', () => {
    const signing = apply(UPLOADED, { type: 'solo.begin' });
    expect(canApply(signing, { type: 'solo.begin' })).toBe(false);
    expect(
      canApply(signing, {
        type: 'flow.start',
        flow: { type: 'standard', minimumRequiredSigns: 0 },
        participants: [{ id: 's1', role: 'signatory', position: 1 }],
      }),
    ).toBe(false);
    expect(apply(signing, { type: 'flow.fail' }).state).toBe('error');
  });

  it('is not for a document with a flow, nor after the end', () => {
    const flow = apply(UPLOADED, {
      type: 'flow.start',
      flow: { type: 'standard', minimumRequiredSigns: 0 },
      participants: [{ id: 's1', role: 'signatory', position: 1 }],
    });
    expect(canApply(flow, { type: 'solo.begin' })).toBe(false);
    const signing = apply(flow, { type: 'sign.begin', participantId: 's1' });
    // A flow's signature is completed by its signer only, never by the solo events.
    expect(canApply(signing, { type: 'solo.complete' })).toBe(false);
    expect(canApply(signing, { type: 'solo.abort' })).toBe(false);
    const signed = apply(apply(UPLOADED, { type: 'solo.begin' }), { type: 'solo.complete' });
    expect(canApply(signed, { type: 'solo.begin' })).toBe(false);
  });

  it('the owner may sign an uploaded document; it stays in "uploaded", not in to_do', () => {
    const owner = documentPermissions({
      document: { ownerId: ADA.id, state: 'uploaded' },
      signFlow: null,
      participants: [],
      viewer: ADA,
      archivedByViewer: false,
    });
    expect(owner.currentUserCanSign).toBe(true);
    expect(isInCategory('to_do', 'uploaded', owner)).toBe(false);
    expect(isInCategory('uploaded', 'uploaded', owner)).toBe(true);
    const stranger = documentPermissions({
      document: { ownerId: ADA.id, state: 'uploaded' },
      signFlow: null,
      participants: [],
      viewer: BOB,
      archivedByViewer: false,
    });
    expect(stranger.currentUserCanSign).toBe(false);
    // While her signature is applied: in progress, and nobody may sign, archive or delete it.
    const signing = documentPermissions({
      document: { ownerId: ADA.id, state: 'signing' },
      signFlow: null,
      participants: [],
      viewer: ADA,
      archivedByViewer: false,
    });
    expect(signing).toMatchObject({
      currentUserCanSign: false,
      currentUserCanArchive: false,
      currentUserCanDelete: false,
    });
    expect(isInCategory('in_progress', 'signing', signing)).toBe(true);
  });
});
