import { describe, expect, it } from 'vitest';
import { deriveStatus, type StatusSource } from '../../src/views/documents/status';

const BASE: StatusSource = {
  state: 'uploaded',
  isSignFlow: false,
  currentUserCanSign: false,
  currentUserCanReview: false,
  signedCount: 1,
  signatoryCount: 3,
  approvedCount: 2,
  reviewerCount: 4,
};

// One case per row of spec 000 §4 "Displayed status".
describe('deriveStatus', () => {
  it.each(['signing', 'awaiting_signs'])(
    '%s in a sign flow the user can sign is waiting, with signed/total',
    (state) => {
      expect(deriveStatus({ ...BASE, state, isSignFlow: true, currentUserCanSign: true })).toEqual({
        kind: 'waiting',
        counts: { done: 1, total: 3 },
      });
    },
  );

  it.each(['signing', 'awaiting_signs'])(
    '%s in a sign flow the user cannot sign is pending, with signed/total',
    (state) => {
      expect(deriveStatus({ ...BASE, state, isSignFlow: true, currentUserCanSign: false })).toEqual({
        kind: 'pending',
        counts: { done: 1, total: 3 },
      });
    },
  );

  it('awaiting_signs without the sign-flow flag still counts signatures', () => {
    expect(deriveStatus({ ...BASE, state: 'awaiting_signs', currentUserCanSign: true }).kind).toBe('waiting');
  });

  it('signing alone (no sign flow) is to be signed', () => {
    expect(deriveStatus({ ...BASE, state: 'signing', isSignFlow: false })).toEqual({ kind: 'toBeSigned' });
  });

  it('signed shows counts only for a sign flow', () => {
    expect(deriveStatus({ ...BASE, state: 'signed', isSignFlow: true })).toEqual({
      kind: 'signed',
      counts: { done: 1, total: 3 },
    });
    expect(deriveStatus({ ...BASE, state: 'signed', isSignFlow: false })).toEqual({ kind: 'signed' });
  });

  it('refused is refused', () => {
    expect(deriveStatus({ ...BASE, state: 'refused' })).toEqual({ kind: 'refused' });
  });

  it('error is an invalid file', () => {
    expect(deriveStatus({ ...BASE, state: 'error' })).toEqual({ kind: 'error' });
  });

  it('in_review is for the user when they can review, else by others, with approved/reviewers', () => {
    expect(deriveStatus({ ...BASE, state: 'in_review', currentUserCanReview: true })).toEqual({
      kind: 'inReviewForYou',
      counts: { done: 2, total: 4 },
    });
    expect(deriveStatus({ ...BASE, state: 'in_review', currentUserCanReview: false })).toEqual({
      kind: 'inReviewByOthers',
      counts: { done: 2, total: 4 },
    });
  });

  it('rejected is disapproved', () => {
    expect(deriveStatus({ ...BASE, state: 'rejected' })).toEqual({ kind: 'disapproved' });
  });

  it('a cancelled sign flow says so instead of looking freshly uploaded', () => {
    expect(deriveStatus({ ...BASE, state: 'cancelled' })).toEqual({ kind: 'cancelled' });
  });

  it.each(['uploaded', 'anything_else'])('%s is plain uploaded', (state) => {
    expect(deriveStatus({ ...BASE, state })).toEqual({ kind: 'uploaded' });
  });
});
