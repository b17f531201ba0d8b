// The registry's event lists for the sign screen's machines (machines/index.ts): every event with
// representative payloads, actor results and timers included. Payloads are chosen so that few of them
// change the context (a card that is already chosen, the location the input already holds): the gate
// needs every transition taken, not every combination of field values, which the unit tests cover.
import type { SignConfirmationEvent, SignConfirmationInput } from './sign-confirmation.machine';
import type { SigningEvent, SigningInput } from './signing.machine';
import { sampleFlowSigning, sampleOwnSigning } from './signing-samples';
import { sampleDocument } from './samples';

type InternalEvent =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown }
  | { type: `xstate.after.${string}` };

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as const;
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as const;
const after = (delay: string, stateId: string) => ({ type: `xstate.after.${delay}.${stateId}` }) as const;

const OFFLINE = { code: 'network' };

export const SIGNING_EVENTS = [
  { type: 'screen.retry' },
  { type: 'card.changed', cardId: 'card-1' },
  { type: 'location.changed', location: 'London' },
  { type: 'location.locate' },
  { type: 'reason.changed', reason: '' },
  { type: 'mode.changed', mode: 'page' },
  { type: 'mode.changed', mode: 'inline' },
  { type: 'pagePosition.changed', position: 'after' },
  { type: 'afterPage.changed', text: '' },
  { type: 'placement.saved', placement: { pageNumber: 1, left: 0.1, top: 0.2 } },
  { type: 'placement.saved', placement: null },
  { type: 'sign.submit' },
  { type: 'form.cancel' },
  done('loadSignScreen', sampleOwnSigning()),
  done('loadSignScreen', sampleFlowSigning()),
  done('loadSignScreen', sampleOwnSigning({ document: sampleDocument('d1', { currentUserCanSign: false }) })),
  failed('loadSignScreen', OFFLINE),
  done('locateMe', 'London'),
  failed('locateMe', { code: 'location_unavailable' }),
  done('signDocument', { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' }),
  failed('signDocument', { code: 'sign_refused', status: 422, messages: ['The plan allows no more.'] }),
  done('confirmation', { outcome: 'confirmed' }),
  done('confirmation', { outcome: 'failed' }),
] as const satisfies readonly (SigningEvent | InternalEvent)[];

export const SIGNING_INPUTS = [
  { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation: 'London' },
  { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation: '' },
] as const satisfies readonly SigningInput[];

export const SIGN_CONFIRMATION_EVENTS = [
  { type: 'visibility.hidden' },
  { type: 'visibility.visible' },
  { type: 'resend.request' },
  { type: 'dialog.close' },
  done('fetchVersion', 'pending'),
  done('fetchVersion', 'signed'),
  done('fetchVersion', 'sign_limit_exceeded'),
  done('fetchVersion', 'presign_error'),
  done('fetchVersion', 'denied'),
  failed('fetchVersion', OFFLINE),
  failed('fetchVersion', { code: 'not_found', status: 404 }),
  done('resendNotification', undefined),
  failed('resendNotification', { code: 'too_many_requests', status: 429 }),
  failed('resendNotification', { code: 'action_not_allowed', status: 409 }),
  after('pollInterval', 'signConfirmation.waiting.poll.scheduled'),
  after('retryBackoff', 'signConfirmation.waiting.poll.backingOff'),
  after('resendCooldown', 'signConfirmation.waiting.resend.coolingDown'),
] as const satisfies readonly (SignConfirmationEvent | InternalEvent)[];

export const SIGN_CONFIRMATION_INPUTS = [
  { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' },
] as const satisfies readonly SignConfirmationInput[];
