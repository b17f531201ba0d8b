// The permission flags the API sends are the lifecycle's answers for the viewer (docs/decisions.md, "The
// document lifecycle"): one row per situation, from the rows the server stores.
import { describe, expect, it } from 'vitest';
import type { DocumentState, ParticipantState } from '../../server/db/schema';
import {
  documentPermissions,
  lifecycleRecordOf,
  type DocumentPermissions,
  type PermissionParticipant,
  type PermissionSignFlow,
} from '../../server/documents/permissions';

const ADA = { id: 'user-ada', email: 'ada@paraph.test' };
const BOB = { id: 'user-bob', email: 'bob@paraph.test' };
const CAROL = { id: 'user-carol', email: 'carol@paraph.test' };

const row = (
  user: { id: string; email: string },
  role: PermissionParticipant['role'],
  state: ParticipantState,
  linked = true,
): PermissionParticipant => ({ role, state, userId: linked ? user.id : null, email: user.email });

function flags(
  state: DocumentState,
  participants: PermissionParticipant[] | null,
  viewer = ADA,
  signFlow: Partial<PermissionSignFlow> = {},
): DocumentPermissions {
  return documentPermissions({
    document: { ownerId: ADA.id, state },
    signFlow: participants === null ? null : { type: 'standard', state: 'awaiting_signs', ...signFlow },
    participants: participants ?? [],
    viewer,
    archivedByViewer: false,
  });
}

describe('lifecycleRecordOf', () => {
  it('keeps the rows in order, with their ids when known and their index otherwise', () => {
    const record = lifecycleRecordOf(
      { state: 'awaiting_signs' },
      { type: 'ordered', state: 'awaiting_signs', minimumRequiredSigns: 0 },
      [{ ...row(BOB, 'signatory', 'pending'), id: 'p-bob', position: 4 }, row(CAROL, 'signatory', 'waiting')],
    );
    expect(record).toEqual({
      state: 'awaiting_signs',
      flow: { type: 'ordered', minimumRequiredSigns: 0 },
      participants: [
        { id: 'p-bob', role: 'signatory', position: 4, state: 'pending' },
        { id: 'participant-1', role: 'signatory', position: 1, state: 'waiting' },
      ],
      signingParticipantId: null,
    });
  });
});

describe('flags from the lifecycle', () => {
  it('the owner of an uploaded document may start a flow; nobody else may', () => {
    expect(flags('uploaded', null)).toMatchObject({
      currentUserCanCreateSignFlow: true,
      currentUserCanCancel: false,
    });
    expect(flags('uploaded', null, BOB).currentUserCanCreateSignFlow).toBe(false);
  });

  it.each<DocumentState>(['cancelled', 'refused', 'rejected'])(
    'the owner may send a %s document again',
    (state) => {
      expect(flags(state, [row(BOB, 'signatory', 'cancelled')]).currentUserCanCreateSignFlow).toBe(true);
    },
  );

  it.each<DocumentState>(['signed', 'error', 'in_review', 'awaiting_signs'])('but not a %s one', (state) => {
    expect(
      flags(state, [row(BOB, 'signatory', state === 'signed' ? 'signed' : 'pending')])
        .currentUserCanCreateSignFlow,
    ).toBe(false);
  });

  it('a pending signatory, matched by address while no account is linked, may sign and refuse', () => {
    expect(flags('awaiting_signs', [row(BOB, 'signatory', 'pending', false)], BOB)).toMatchObject({
      currentUserCanSign: true,
      currentUserCanRefuse: true,
      currentUserCanReview: false,
      currentUserCanEditSignFlow: false,
    });
  });

  it('an ordered flow: a later signatory may refuse before their turn but not sign', () => {
    const participants = [row(BOB, 'signatory', 'pending'), row(CAROL, 'signatory', 'waiting')];
    expect(flags('awaiting_signs', participants, CAROL, { type: 'ordered' })).toMatchObject({
      currentUserCanSign: false,
      currentUserCanRefuse: true,
    });
  });

  it('during a signature nobody signs, refuses, edits or cancels', () => {
    const participants = [row(BOB, 'signatory', 'pending'), row(CAROL, 'signatory', 'pending')];
    expect(flags('awaiting_signs', participants, CAROL)).toMatchObject({ currentUserCanSign: true });
    expect(flags('signing', participants, CAROL)).toMatchObject({
      currentUserCanSign: false,
      currentUserCanRefuse: false,
    });
    expect(flags('signing', participants)).toMatchObject({
      currentUserCanEditSignFlow: false,
      currentUserCanCancel: false,
      currentUserCanArchive: false,
      currentUserCanDelete: false,
    });
  });

  it('a pending reviewer reviews; signatories wait for the review', () => {
    const participants = [row(BOB, 'reviewer', 'pending'), row(CAROL, 'signatory', 'waiting')];
    expect(flags('in_review', participants, BOB)).toMatchObject({
      currentUserCanReview: true,
      currentUserCanRefuse: false,
    });
    expect(flags('in_review', participants, CAROL)).toMatchObject({
      currentUserCanSign: false,
      currentUserCanRefuse: false,
    });
    // A flow stored before it has signatories can still be edited (to add them) or cancelled.
    expect(flags('in_review', [row(BOB, 'reviewer', 'pending')])).toMatchObject({
      currentUserCanEditSignFlow: true,
      currentUserCanCancel: true,
    });
    expect(flags('in_review', participants)).toMatchObject({
      currentUserCanEditSignFlow: true,
      currentUserCanCancel: true,
    });
  });

  it('the owner edits and cancels a running flow; a participant who is not the owner does not', () => {
    const participants = [row(BOB, 'signatory', 'signed'), row(CAROL, 'signatory', 'pending')];
    expect(flags('awaiting_signs', participants)).toMatchObject({
      currentUserCanEditSignFlow: true,
      currentUserCanCancel: true,
    });
    expect(flags('awaiting_signs', participants, BOB)).toMatchObject({
      currentUserSigned: true,
      currentUserCanSign: false,
      currentUserCanRefuse: false,
      currentUserCanEditSignFlow: false,
      currentUserCanCancel: false,
    });
  });

  it('an ended flow offers nothing but its restart to the owner', () => {
    const participants = [row(BOB, 'signatory', 'refused'), row(CAROL, 'signatory', 'cancelled')];
    for (const viewer of [BOB, CAROL]) {
      expect(flags('refused', participants, viewer)).toMatchObject({
        currentUserCanSign: false,
        currentUserCanRefuse: false,
        currentUserCanReview: false,
        currentUserCanCreateSignFlow: false,
      });
    }
    expect(flags('refused', participants)).toMatchObject({
      currentUserCanCreateSignFlow: true,
      currentUserCanEditSignFlow: false,
      currentUserCanCancel: false,
    });
  });
});
