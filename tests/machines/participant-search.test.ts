import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  isValidEmail,
  participantSearchMachine,
  suggestionsOf,
  type SearchSources,
} from '../../machines/participant-search.machine';

const ADA = { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace' };
const BOB = { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder' };
const CAROL = { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw' };
const DAN = { emailAddress: 'dan@paraph.test', fullName: 'Dan Brown' };

const SOURCES: SearchSources = {
  self: ADA,
  connections: [BOB, CAROL],
  groups: [{ id: 'g1', name: 'Paraph board', members: [BOB, DAN] }],
  reviewers: [],
  signatories: [],
  canChangeReviewers: true,
};

function start(sources: SearchSources = SOURCES) {
  const actor = createActor(participantSearchMachine, { input: { sources } }).start();
  const picked = vi.fn();
  actor.on('participants.picked', picked);
  return { actor, picked };
}

const keysOf = (actor: ReturnType<typeof start>['actor']) =>
  suggestionsOf(actor.getSnapshot().context).map((suggestion) => suggestion.key);

describe('participant-search machine', () => {
  it('suggests nothing below 3 characters', () => {
    const { actor } = start();
    actor.send({ type: 'query.changed', query: ' pa ' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(keysOf(actor)).toEqual([]);
  });

  it('suggests the user, connections and groups matching the query, in that order', () => {
    const { actor } = start();
    actor.send({ type: 'query.changed', query: 'paraph' });
    expect(keysOf(actor)).toEqual([
      'self:ada@paraph.test',
      'connection:bob@paraph.test',
      'connection:carol@paraph.test',
      'group:g1',
    ]);
    actor.send({ type: 'query.changed', query: 'shaw' });
    expect(keysOf(actor)).toEqual(['connection:carol@paraph.test']);
  });

  it('offers a typed valid address nobody known has', () => {
    const { actor } = start();
    actor.send({ type: 'query.changed', query: 'erin@elsewhere.test' });
    expect(keysOf(actor)).toEqual(['email:erin@elsewhere.test']);
    actor.send({ type: 'query.changed', query: 'BOB@paraph.test' });
    expect(keysOf(actor)).toEqual(['connection:bob@paraph.test']);
    actor.send({ type: 'query.changed', query: 'erin@elsewhere' });
    expect(keysOf(actor)).toEqual([]);
    expect(isValidEmail('a.b+c_d-e@x.y')).toBe(true);
    expect(isValidEmail('a b@x.y')).toBe(false);
    expect(isValidEmail('ab@xy')).toBe(false);
  });

  it('marks people already added, hides the user already in the role, and skips them', () => {
    const { actor } = start({ ...SOURCES, signatories: [ADA, BOB], reviewers: [CAROL] });
    actor.send({ type: 'query.changed', query: 'paraph' });
    const suggestions = suggestionsOf(actor.getSnapshot().context);
    expect(suggestions.map((s) => [s.key, s.addedAs])).toEqual([
      ['connection:bob@paraph.test', 'signatory'],
      ['connection:carol@paraph.test', 'reviewer'],
      ['group:g1', null],
    ]);
    expect(actor.getSnapshot().context.highlightedKey).toBe('group:g1');
    actor.send({ type: 'role.changed', role: 'reviewer' });
    expect(keysOf(actor)[0]).toBe('self:ada@paraph.test');
    expect(suggestionsOf(actor.getSnapshot().context)[0]?.addedAs).toBe('signatory');
  });

  it('moves over the choosable entries with the arrows and picks with Enter', () => {
    const { actor, picked } = start({ ...SOURCES, signatories: [BOB] });
    actor.send({ type: 'query.changed', query: 'paraph' });
    expect(actor.getSnapshot().context.highlightedKey).toBe('self:ada@paraph.test');
    actor.send({ type: 'highlight.next' });
    expect(actor.getSnapshot().context.highlightedKey).toBe('connection:carol@paraph.test');
    actor.send({ type: 'highlight.next' });
    actor.send({ type: 'highlight.next' });
    expect(actor.getSnapshot().context.highlightedKey).toBe('self:ada@paraph.test');
    actor.send({ type: 'highlight.previous' });
    expect(actor.getSnapshot().context.highlightedKey).toBe('group:g1');
    actor.send({ type: 'suggestion.pick' });
    // The group expands into its people, Bob (already a signatory) left out.
    expect(picked).toHaveBeenCalledWith(expect.objectContaining({ role: 'signatory', people: [DAN] }));
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.query).toBe('');
  });

  it('never picks an entry already added', () => {
    const { actor, picked } = start({ ...SOURCES, signatories: [BOB] });
    actor.send({ type: 'query.changed', query: 'bob@' });
    actor.send({ type: 'suggestion.pick', key: 'connection:bob@paraph.test' });
    actor.send({ type: 'suggestion.pick' });
    expect(picked).not.toHaveBeenCalled();
  });

  it('offers the reviewer role only when reviewers can change', () => {
    const { actor } = start({ ...SOURCES, canChangeReviewers: false });
    actor.send({ type: 'role.changed', role: 'reviewer' });
    expect(actor.getSnapshot().context.role).toBe('signatory');
    const open = start();
    open.actor.send({ type: 'role.changed', role: 'reviewer' });
    open.actor.send({ type: 'sources.changed', sources: { ...SOURCES, canChangeReviewers: false } });
    expect(open.actor.getSnapshot().context.role).toBe('signatory');
  });

  it('Escape dismisses the list until the query changes', () => {
    const { actor } = start();
    actor.send({ type: 'query.changed', query: 'bob' });
    actor.send({ type: 'search.dismiss' });
    expect(actor.getSnapshot().matches('dismissed')).toBe(true);
    actor.send({ type: 'query.changed', query: 'bob ' });
    expect(actor.getSnapshot().matches('suggesting')).toBe(true);
  });
});
