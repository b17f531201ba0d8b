// Property tests of the lifecycle: random sequences of events, from random people,
// over random flows (valid and not), checked step by step against rules stated independently of the
// machine's own code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyLifecycleEvent,
  canApply,
  type LifecycleDocumentState,
  type LifecycleEvent,
  type LifecycleFlow,
  type LifecycleFlowMember,
  type LifecycleRecord,
} from '../../machines/document-lifecycle';

const PEOPLE = ['a', 'b', 'c', 'd', 'e'] as const;
const ENDED: readonly LifecycleDocumentState[] = ['signed', 'refused', 'rejected', 'cancelled', 'error'];
const RESTARTABLE: readonly LifecycleDocumentState[] = ['refused', 'rejected', 'cancelled'];

const memberArb: fc.Arbitrary<LifecycleFlowMember> = fc.record({
  id: fc.constantFrom(...PEOPLE),
  role: fc.constantFrom('reviewer' as const, 'signatory' as const),
  position: fc.integer({ min: 1, max: 6 }),
});
// Mostly valid flows (distinct people, the minimum usually 0), so that sequences get deep into signing;
// invalid ones still come up and must be refused.
const flowArb = fc.record({
  type: fc.constantFrom('ordered' as const, 'standard' as const),
  minimumRequiredSigns: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }) },
  ),
});
const membersArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.uniqueArray(memberArb, { minLength: 1, maxLength: 5, selector: (member) => member.id }),
  },
  { weight: 1, arbitrary: fc.array(memberArb, { maxLength: 5 }) },
);
// Events name a participant by a number, resolved against the record when the event is sent: mostly
// someone in the flow (right or wrong for the event), sometimes a stranger.
type ByParticipant = Extract<LifecycleEvent, { participantId: string }>['type'];
type Template =
  | Extract<LifecycleEvent, { type: 'flow.start' | 'flow.cancel' | 'flow.fail' }>
  | { type: 'flow.edit'; flow: LifecycleFlow; participants: LifecycleFlowMember[]; isFromRecord: boolean }
  | { type: ByParticipant; pick: number };

const byPick = (type: ByParticipant, weight: number) => ({
  weight,
  arbitrary: fc.record({ type: fc.constant(type), pick: fc.nat({ max: 20 }) }),
});

const templateArb: fc.Arbitrary<Template> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('flow.start' as const),
      flow: flowArb,
      participants: membersArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('flow.edit' as const),
      flow: flowArb,
      participants: fc.array(memberArb, { maxLength: 2 }),
      isFromRecord: fc.boolean(),
    }),
  },
  byPick('review.approve', 4),
  byPick('review.reject', 1),
  byPick('sign.begin', 5),
  byPick('sign.abort', 1),
  byPick('sign.complete', 5),
  byPick('flow.refuse', 1),
  { weight: 1, arbitrary: fc.constant({ type: 'flow.cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'flow.fail' as const }) },
);

function resolve(template: Template, record: LifecycleRecord): LifecycleEvent {
  if (template.type === 'flow.edit') {
    const { flow, participants } = template;
    if (!template.isFromRecord || record.flow === null) return { type: 'flow.edit', flow, participants };
    // The flow as it stands, with a few people added (maybe someone already in it: refused).
    const kept = record.participants.map(({ id, role, position }) => ({ id, role, position }));
    return {
      type: 'flow.edit',
      flow: { ...record.flow, minimumRequiredSigns: flow.minimumRequiredSigns },
      participants: [
        ...kept,
        ...participants.map((member) => ({ ...member, position: member.position + 10 })),
      ],
    };
  }
  if (!('pick' in template)) return template;
  const ids = record.participants.map((participant) => participant.id);
  return { type: template.type, participantId: ids[template.pick % (ids.length + 1)] ?? 'stranger' };
}

// Long sequences: a flow needs several steps to get anywhere near its end.
const eventsArb = fc.array(templateArb, { minLength: 10, maxLength: 60, size: 'max' });

const UPLOADED: LifecycleRecord = { state: 'uploaded', flow: null, participants: [] };

const signatoriesInOrder = (record: LifecycleRecord) =>
  record.participants
    .filter((participant) => participant.role === 'signatory')
    .sort((left, right) => left.position - right.position);
const signedIds = (record: LifecycleRecord) =>
  new Set(record.participants.filter((p) => p.role === 'signatory' && p.state === 'signed').map((p) => p.id));

/** Checks one accepted or refused step; returns the record to go on with. */
function step(before: LifecycleRecord, event: LifecycleEvent): LifecycleRecord {
  const { accepted, next } = applyLifecycleEvent(before, event);
  expect(canApply(before, event)).toBe(accepted);
  if (!accepted) {
    expect(next).toBe(before);
    return before;
  }
  if (ENDED.includes(before.state)) {
    // A final state accepts nothing but a restart, and only after a refusal, a rejection or a cancel.
    expect(event.type).toBe('flow.start');
    expect(RESTARTABLE).toContain(before.state);
  }
  const newlySigned = [...signedIds(next)].filter((id) => !signedIds(before).has(id));
  if (event.type === 'flow.start') {
    expect(newlySigned).toEqual([]);
  } else if (event.type === 'sign.complete') {
    // Exactly the signer, who was due: the review done and, in an ordered flow, everyone before them signed.
    expect(before.state).toBe('signing');
    expect(newlySigned).toEqual([event.participantId]);
    expect(
      before.participants.filter((p) => p.role === 'reviewer').every((p) => p.state === 'approved'),
    ).toBe(true);
    if (before.flow?.type === 'ordered') {
      const order = signatoriesInOrder(before);
      const index = order.findIndex((participant) => participant.id === event.participantId);
      expect(order.slice(0, index).every((participant) => participant.state === 'signed')).toBe(true);
    }
  } else {
    // No other event signs anyone, and nobody's signature is ever taken back.
    expect(newlySigned).toEqual([]);
    for (const id of signedIds(before)) expect(signedIds(next).has(id), `${id} stays signed`).toBe(true);
  }
  if (event.type === 'sign.begin') {
    expect(before.state).toBe('awaiting_signs');
    expect(next.signingParticipantId).toBe(event.participantId);
  }
  return next;
}

/** What holds of every record the machine produces. */
function checkRecord(record: LifecycleRecord): void {
  const signatories = signatoriesInOrder(record);
  const reviewers = record.participants.filter((participant) => participant.role === 'reviewer');
  const signed = signatories.filter((participant) => participant.state === 'signed');
  expect(signed.length).toBeLessThanOrEqual(signatories.length);
  if (record.flow !== null && record.flow.minimumRequiredSigns > 0 && record.state !== 'signed') {
    expect(signed.length).toBeLessThan(record.flow.minimumRequiredSigns);
  }
  if (record.state === 'signed') {
    const goal = record.flow?.minimumRequiredSigns || signatories.length;
    expect(signed.length).toBe(goal);
  }
  if (record.state === 'in_review') {
    expect(signatories.every((participant) => participant.state === 'waiting')).toBe(true);
    expect(reviewers.some((participant) => participant.state === 'pending')).toBe(true);
  }
  if (record.state === 'awaiting_signs' || record.state === 'signing') {
    expect(reviewers.every((participant) => participant.state === 'approved')).toBe(true);
  }
  if (record.flow?.type === 'ordered') {
    // Signed signatories are the first ones by position; at most the next one is pending.
    const isSigned = signatories.map((participant) => participant.state === 'signed');
    expect(isSigned).toEqual([...isSigned].sort((left, right) => Number(right) - Number(left)));
    expect(signatories.filter((participant) => participant.state === 'pending').length).toBeLessThanOrEqual(
      1,
    );
  }
  expect(record.signingParticipantId != null).toBe(record.state === 'signing');
  if (ENDED.includes(record.state)) {
    expect(record.participants.every((p) => p.state !== 'pending' && p.state !== 'waiting')).toBe(true);
  }
}

describe('document lifecycle properties', () => {
  it('any sequence of events keeps every rule of the lifecycle', () => {
    const reached = new Set<string>();
    fc.assert(
      fc.property(eventsArb, (events) => {
        let record = UPLOADED;
        for (const template of events) {
          const event = resolve(template, record);
          const next = step(record, event);
          if (next !== record) reached.add(`${event.type} -> ${next.state}`);
          record = next;
          checkRecord(record);
        }
      }),
      { numRuns: 400 },
    );
    // The random sequences do reach the deep states, so the rules above were tested there.
    for (const outcome of [
      'sign.complete -> signed',
      'sign.complete -> awaiting_signs',
      'flow.refuse -> refused',
    ]) {
      expect(reached, outcome).toContain(outcome);
    }
    expect([...reached].filter((outcome) => outcome.startsWith('flow.edit')).length).toBeGreaterThan(0);
  });

  it('an ended document accepts nothing but a new flow', () => {
    fc.assert(
      fc.property(eventsArb, fc.array(templateArb, { maxLength: 10 }), (events, probes) => {
        let record = UPLOADED;
        for (const template of events) record = applyLifecycleEvent(record, resolve(template, record)).next;
        fc.pre(ENDED.includes(record.state));
        for (const probe of probes.map((template) => resolve(template, record))) {
          if (probe.type === 'flow.start' && RESTARTABLE.includes(record.state)) continue;
          expect(canApply(record, probe), `${probe.type} in ${record.state}`).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a signatory never signs twice in one flow', () => {
    fc.assert(
      fc.property(eventsArb, (events) => {
        let record = UPLOADED;
        let signedInFlow = new Set<string>();
        for (const template of events) {
          const event = resolve(template, record);
          const { accepted, next } = applyLifecycleEvent(record, event);
          if (accepted && event.type === 'flow.start') signedInFlow = new Set();
          if (accepted && event.type === 'sign.complete') {
            expect(signedInFlow.has(event.participantId)).toBe(false);
            signedInFlow.add(event.participantId);
          }
          record = next;
        }
      }),
      { numRuns: 300 },
    );
  });
});
