// The lifecycle's rules one by one (docs/decisions.md, "The document lifecycle"), through the pure API the
// server uses.
import { describe, expect, it } from 'vitest';
import {
  applyLifecycleEvent,
  canApply,
  participantsToNotify,
  type LifecycleEvent,
  type LifecycleFlow,
  type LifecycleFlowMember,
  type LifecycleRecord,
} from '../../machines/document-lifecycle';

const UPLOADED: LifecycleRecord = { state: 'uploaded', flow: null, participants: [] };
const ORDERED: LifecycleFlow = { type: 'ordered', minimumRequiredSigns: 0 };
const STANDARD: LifecycleFlow = { type: 'standard', minimumRequiredSigns: 0 };

const reviewer = (id: string, position: number): LifecycleFlowMember => ({ id, role: 'reviewer', position });
const signatory = (id: string, position: number): LifecycleFlowMember => ({
  id,
  role: 'signatory',
  position,
});

function apply(record: LifecycleRecord, ...events: LifecycleEvent[]): LifecycleRecord {
  return events.reduce((current, event) => {
    const result = applyLifecycleEvent(current, event);
    expect(result.accepted, `${event.type} from ${current.state}`).toBe(true);
    return result.next;
  }, record);
}

const statesOf = (record: LifecycleRecord) =>
  Object.fromEntries(record.participants.map((participant) => [participant.id, participant.state]));

const start = (flow: LifecycleFlow, participants: LifecycleFlowMember[]): LifecycleEvent => ({
  type: 'flow.start',
  flow,
  participants,
});
const edit = (flow: LifecycleFlow, participants: LifecycleFlowMember[]): LifecycleEvent => ({
  type: 'flow.edit',
  flow,
  participants,
});
const approve = (participantId: string): LifecycleEvent => ({ type: 'review.approve', participantId });
const begin = (participantId: string): LifecycleEvent => ({ type: 'sign.begin', participantId });
const complete = (participantId: string): LifecycleEvent => ({ type: 'sign.complete', participantId });
const refuse = (participantId: string): LifecycleEvent => ({ type: 'flow.refuse', participantId });

const REVIEWED = start(ORDERED, [
  reviewer('r1', 1),
  reviewer('r2', 2),
  signatory('s1', 3),
  signatory('s2', 4),
]);
// Listed out of order: positions decide who signs first.
const ORDERED_ONLY = start(ORDERED, [signatory('s2', 2), signatory('s1', 1), signatory('s3', 3)]);
const ONE_OF_TWO = start({ type: 'standard', minimumRequiredSigns: 1 }, [
  signatory('s1', 1),
  signatory('s2', 2),
]);

describe('starting a flow', () => {
  it('with reviewers: in review, reviewers pending, signatories waiting, reviewers notified', () => {
    const next = apply(UPLOADED, REVIEWED);
    expect(next.state).toBe('in_review');
    expect(statesOf(next)).toEqual({ r1: 'pending', r2: 'pending', s1: 'waiting', s2: 'waiting' });
    expect(participantsToNotify(UPLOADED, next).map((participant) => participant.id)).toEqual(['r1', 'r2']);
  });

  it('ordered without reviewers: only the first signatory by position is pending', () => {
    const next = apply(UPLOADED, ORDERED_ONLY);
    expect(next.state).toBe('awaiting_signs');
    expect(statesOf(next)).toEqual({ s1: 'pending', s2: 'waiting', s3: 'waiting' });
    expect(participantsToNotify(UPLOADED, next).map((participant) => participant.id)).toEqual(['s1']);
  });

  it('standard: every signatory is pending at once', () => {
    const next = apply(UPLOADED, start(STANDARD, [signatory('s1', 1), signatory('s2', 2)]));
    expect(statesOf(next)).toEqual({ s1: 'pending', s2: 'pending' });
  });

  it.each<[string, LifecycleEvent]>([
    [
      'a minimum in an ordered flow',
      start({ type: 'ordered', minimumRequiredSigns: 1 }, [signatory('a', 1), signatory('b', 2)]),
    ],
    [
      'a minimum equal to the signatories',
      start({ type: 'standard', minimumRequiredSigns: 2 }, [signatory('a', 1), signatory('b', 2)]),
    ],
    [
      'a negative minimum',
      start({ type: 'standard', minimumRequiredSigns: -1 }, [signatory('a', 1), signatory('b', 2)]),
    ],
    [
      'a fractional minimum',
      start({ type: 'standard', minimumRequiredSigns: 0.5 }, [signatory('a', 1), signatory('b', 2)]),
    ],
    ['no signatory', start(STANDARD, [reviewer('r', 1)])],
    ['one person twice', start(STANDARD, [reviewer('a', 1), signatory('a', 2)])],
  ])('refuses %s and leaves the record as it was', (_name, event) => {
    const result = applyLifecycleEvent(UPLOADED, event);
    expect(result.accepted).toBe(false);
    expect(result.next).toBe(UPLOADED);
  });

  it('is refused once a flow runs', () => {
    expect(canApply(apply(UPLOADED, ORDERED_ONLY), ORDERED_ONLY)).toBe(false);
  });
});

describe('review', () => {
  const inReview = apply(UPLOADED, REVIEWED);

  it('one approval of two keeps the review going', () => {
    const next = apply(inReview, approve('r1'));
    expect(next.state).toBe('in_review');
    expect(statesOf(next)).toMatchObject({ r1: 'approved', r2: 'pending', s1: 'waiting' });
    expect(canApply(next, approve('r1'))).toBe(false);
  });

  it('the last approval opens the signing: the first signatory pending and notified', () => {
    const approved = apply(inReview, approve('r1'));
    const next = apply(approved, approve('r2'));
    expect(next.state).toBe('awaiting_signs');
    expect(statesOf(next)).toEqual({ r1: 'approved', r2: 'approved', s1: 'pending', s2: 'waiting' });
    expect(participantsToNotify(approved, next).map((participant) => participant.id)).toEqual(['s1']);
  });

  it('only pending reviewers approve or reject; nobody signs or refuses during the review', () => {
    for (const event of [approve('s1'), approve('nobody'), begin('s1'), refuse('s1')]) {
      expect(canApply(inReview, event), JSON.stringify(event)).toBe(false);
    }
    expect(canApply(inReview, { type: 'review.reject', participantId: 's1' })).toBe(false);
  });

  it('one rejection ends the flow: everyone who had not acted is cancelled', () => {
    const next = apply(inReview, approve('r1'), { type: 'review.reject', participantId: 'r2' });
    expect(next.state).toBe('rejected');
    expect(statesOf(next)).toEqual({ r1: 'approved', r2: 'rejected', s1: 'cancelled', s2: 'cancelled' });
    expect(participantsToNotify(inReview, next)).toEqual([]);
  });
});

describe('signing', () => {
  const ordered = apply(UPLOADED, ORDERED_ONLY);

  it('an ordered flow: only the first unsigned signatory may begin', () => {
    expect(canApply(ordered, begin('s2'))).toBe(false);
    expect(canApply(ordered, begin('s1'))).toBe(true);
  });

  it('one signature at a time: while it awaits confirmation nobody else begins', () => {
    const standard = apply(UPLOADED, start(STANDARD, [signatory('s1', 1), signatory('s2', 2)]));
    const signing = apply(standard, begin('s1'));
    expect(signing.state).toBe('signing');
    expect(signing.signingParticipantId).toBe('s1');
    expect(canApply(signing, begin('s2'))).toBe(false);
    expect(canApply(signing, complete('s2'))).toBe(false);
    expect(canApply(signing, { type: 'sign.abort', participantId: 's2' })).toBe(false);
  });

  it('an abort gives the turn back to the same signatory', () => {
    const next = apply(ordered, begin('s1'), { type: 'sign.abort', participantId: 's1' });
    expect(next.state).toBe('awaiting_signs');
    expect(next.signingParticipantId).toBeNull();
    expect(statesOf(next)).toMatchObject({ s1: 'pending' });
  });

  it('a completed signature passes the turn to the next signatory, who is notified', () => {
    const signing = apply(ordered, begin('s1'));
    const next = apply(signing, complete('s1'));
    expect(next.state).toBe('awaiting_signs');
    expect(statesOf(next)).toEqual({ s1: 'signed', s2: 'pending', s3: 'waiting' });
    expect(participantsToNotify(signing, next).map((participant) => participant.id)).toEqual(['s2']);
    expect(canApply(next, begin('s1'))).toBe(false);
  });

  it('the last signature signs the document, and nothing but the end follows', () => {
    const next = apply(
      ordered,
      begin('s1'),
      complete('s1'),
      begin('s2'),
      complete('s2'),
      begin('s3'),
      complete('s3'),
    );
    expect(next.state).toBe('signed');
    expect(statesOf(next)).toEqual({ s1: 'signed', s2: 'signed', s3: 'signed' });
    for (const event of [
      ORDERED_ONLY,
      begin('s1'),
      refuse('s1'),
      { type: 'flow.cancel' } as const,
      { type: 'flow.fail' } as const,
    ]) {
      expect(canApply(next, event), event.type).toBe(false);
    }
  });

  it('a standard flow with a minimum is signed once that many signed; the others are cancelled', () => {
    const next = apply(UPLOADED, ONE_OF_TWO, begin('s2'), complete('s2'));
    expect(next.state).toBe('signed');
    expect(statesOf(next)).toEqual({ s1: 'cancelled', s2: 'signed' });
  });

  it('a record read back without the signer lets the pending signatory finish', () => {
    const stored: LifecycleRecord = { ...apply(ordered, begin('s1')), signingParticipantId: undefined };
    expect(canApply(stored, complete('s2'))).toBe(false);
    expect(apply(stored, complete('s1')).state).toBe('awaiting_signs');
  });
});

describe('refusing, cancelling, failing', () => {
  const ordered = apply(UPLOADED, ORDERED_ONLY);

  it('a signatory may refuse before their turn in an ordered flow; everyone else is cancelled', () => {
    const next = apply(ordered, refuse('s3'));
    expect(next.state).toBe('refused');
    expect(statesOf(next)).toEqual({ s1: 'cancelled', s2: 'cancelled', s3: 'refused' });
  });

  it('a signed signatory, a stranger or anyone during a signature cannot refuse', () => {
    const afterOne = apply(ordered, begin('s1'), complete('s1'));
    expect(canApply(afterOne, refuse('s1'))).toBe(false);
    expect(canApply(afterOne, refuse('nobody'))).toBe(false);
    expect(canApply(apply(afterOne, begin('s2')), refuse('s3'))).toBe(false);
  });

  it('the flow can be cancelled while in review or awaiting signatures, not during a signature nor after', () => {
    const cancel = { type: 'flow.cancel' } as const;
    expect(apply(apply(UPLOADED, REVIEWED), cancel).state).toBe('cancelled');
    const cancelled = apply(ordered, begin('s1'), complete('s1'), cancel);
    expect(statesOf(cancelled)).toEqual({ s1: 'signed', s2: 'cancelled', s3: 'cancelled' });
    expect(canApply(apply(ordered, begin('s1')), cancel)).toBe(false);
    expect(canApply(UPLOADED, cancel)).toBe(false);
  });

  it.each<[string, LifecycleRecord]>([
    ['uploaded', UPLOADED],
    ['in_review', apply(UPLOADED, REVIEWED)],
    ['awaiting_signs', ordered],
    ['signing', apply(ordered, begin('s1'))],
  ])('a document that cannot be processed goes to error from %s', (_state, record) => {
    const next = apply(record, { type: 'flow.fail' });
    expect(next.state).toBe('error');
    expect(next.participants.every((participant) => participant.state !== 'pending')).toBe(true);
    expect(canApply(next, ORDERED_ONLY)).toBe(false);
  });

  it.each<[string, LifecycleEvent[]]>([
    ['refused', [ORDERED_ONLY, refuse('s1')]],
    ['rejected', [REVIEWED, { type: 'review.reject', participantId: 'r1' }]],
    ['cancelled', [ORDERED_ONLY, { type: 'flow.cancel' }]],
  ])('a %s document can be sent again with new people', (state, events) => {
    const ended = apply(UPLOADED, ...events);
    expect(ended.state).toBe(state);
    const restarted = apply(ended, start(STANDARD, [signatory('t1', 1), signatory('s1', 2)]));
    expect(restarted.state).toBe('awaiting_signs');
    expect(statesOf(restarted)).toEqual({ t1: 'pending', s1: 'pending' });
    expect(participantsToNotify(ended, restarted)).toHaveLength(2);
  });
});

describe('editing a flow', () => {
  const inReview = apply(UPLOADED, REVIEWED, approve('r1'));

  it('during the review: reviewers may change but an approved one stays approved', () => {
    const next = apply(
      inReview,
      edit(ORDERED, [reviewer('r1', 1), reviewer('r3', 2), signatory('s1', 3), signatory('s2', 4)]),
    );
    expect(next.state).toBe('in_review');
    expect(statesOf(next)).toEqual({ r1: 'approved', r3: 'pending', s1: 'waiting', s2: 'waiting' });
    expect(participantsToNotify(inReview, next).map((participant) => participant.id)).toEqual(['r3']);
  });

  it('dropping the last pending reviewer ends the review', () => {
    const next = apply(inReview, edit(ORDERED, [reviewer('r1', 1), signatory('s1', 2), signatory('s2', 3)]));
    expect(next.state).toBe('awaiting_signs');
    expect(statesOf(next)).toMatchObject({ s1: 'pending', s2: 'waiting' });
  });

  it('refuses removing an approved reviewer, changing the type or an invalid minimum', () => {
    expect(canApply(inReview, edit(ORDERED, [reviewer('r2', 1), signatory('s1', 2)]))).toBe(false);
    expect(
      canApply(inReview, edit(STANDARD, [reviewer('r1', 1), reviewer('r2', 2), signatory('s1', 3)])),
    ).toBe(false);
    expect(
      canApply(
        inReview,
        edit({ type: 'ordered', minimumRequiredSigns: 1 }, [
          reviewer('r1', 1),
          signatory('s1', 2),
          signatory('s2', 3),
        ]),
      ),
    ).toBe(false);
  });

  const ordered = apply(UPLOADED, ORDERED_ONLY, begin('s1'), complete('s1'));

  it('while awaiting signatures: signatories may be added; signed ones keep their signature', () => {
    const next = apply(ordered, edit(ORDERED, [signatory('s1', 1), signatory('s2', 2), signatory('s4', 3)]));
    expect(statesOf(next)).toEqual({ s1: 'signed', s2: 'pending', s4: 'waiting' });
    expect(participantsToNotify(ordered, next)).toEqual([]);
  });

  it.each<[string, LifecycleEvent]>([
    ['removing a signed signatory', edit(ORDERED, [signatory('s2', 1), signatory('s3', 2)])],
    [
      'adding a reviewer after the review',
      edit(ORDERED, [reviewer('r9', 1), signatory('s1', 2), signatory('s2', 3)]),
    ],
    [
      'moving a signed signatory after an unsigned one',
      edit(ORDERED, [signatory('s2', 1), signatory('s1', 2)]),
    ],
    ['leaving nothing to sign', edit(ORDERED, [signatory('s1', 1)])],
  ])('refuses %s', (_name, event) => {
    expect(canApply(ordered, event)).toBe(false);
  });

  it('refuses an edit that a lower minimum would complete', () => {
    const standard = apply(
      UPLOADED,
      start(STANDARD, [signatory('s1', 1), signatory('s2', 2), signatory('s3', 3)]),
      begin('s1'),
      complete('s1'),
    );
    const lower = edit({ type: 'standard', minimumRequiredSigns: 1 }, [
      signatory('s1', 1),
      signatory('s2', 2),
      signatory('s3', 3),
    ]);
    expect(canApply(standard, lower)).toBe(false);
    const two = edit({ type: 'standard', minimumRequiredSigns: 2 }, [
      signatory('s1', 1),
      signatory('s2', 2),
      signatory('s3', 3),
    ]);
    expect(apply(standard, two).state).toBe('awaiting_signs');
  });

  it('is refused during a signature and after the end', () => {
    const same = edit(ORDERED, [signatory('s1', 1), signatory('s2', 2), signatory('s3', 3)]);
    expect(canApply(ordered, same)).toBe(true);
    expect(canApply(apply(ordered, begin('s2')), same)).toBe(false);
    expect(canApply(apply(ordered, { type: 'flow.cancel' }), same)).toBe(false);
  });
});
