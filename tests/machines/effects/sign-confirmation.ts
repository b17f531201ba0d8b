// Invoked by the signing machine: it watches the tab's visibility and polls the version at once, then
// every pollInterval, backing off while the network fails; resend is held for resendCooldown. How it
// ended is its output, not an effect.
import type { EffectTable } from './table';

export const SIGN_CONFIRMATION_EFFECTS = {
  '(start)': ['invoke fetchVersion', 'invoke watchVisibility'],
  'waiting.poll.scheduled: visibility.hidden -> waiting.poll.paused': [],
  'waiting.poll.scheduled: xstate.after.pollInterval.signConfirmation.waiting.poll.scheduled -> waiting.poll.checking':
    ['invoke fetchVersion'],
  'waiting.poll.*: dialog.close -> closed (on waiting.poll)': [],
  'waiting.poll.checking: visibility.hidden -> waiting.poll.paused': [],
  'waiting.poll.checking: xstate.done.actor.fetchVersion #1 [isSigned] -> confirmed': [],
  'waiting.poll.checking: xstate.done.actor.fetchVersion #2 [isOverPlanLimit] -> failed': [],
  'waiting.poll.checking: xstate.done.actor.fetchVersion #3 [isPresignError] -> failed': [],
  'waiting.poll.checking: xstate.done.actor.fetchVersion #4 [isCancelled] -> cancelled': [],
  'waiting.poll.checking: xstate.done.actor.fetchVersion #5 -> waiting.poll.scheduled': [
    'after pollInterval',
  ],
  'waiting.poll.checking: xstate.error.actor.fetchVersion #1 [isTransient] -> waiting.poll.backingOff': [
    'after retryBackoff',
  ],
  'waiting.poll.checking: xstate.error.actor.fetchVersion #2 -> failed': [],
  'waiting.poll.backingOff: visibility.hidden -> waiting.poll.paused': [],
  'waiting.poll.backingOff: xstate.after.retryBackoff.signConfirmation.waiting.poll.backingOff -> waiting.poll.checking':
    ['invoke fetchVersion'],
  'waiting.poll.paused: visibility.visible -> waiting.poll.checking': ['invoke fetchVersion'],
  'waiting.resend.idle: resend.request -> waiting.resend.sending': ['invoke resendNotification'],
  'waiting.resend.sending: xstate.done.actor.resendNotification -> waiting.resend.coolingDown': [
    'after resendCooldown',
  ],
  'waiting.resend.sending: xstate.error.actor.resendNotification #1 [isTooSoon] -> waiting.resend.coolingDown':
    ['after resendCooldown'],
  'waiting.resend.sending: xstate.error.actor.resendNotification #2 -> waiting.resend.idle': [],
  'waiting.resend.coolingDown: xstate.after.resendCooldown.signConfirmation.waiting.resend.coolingDown -> waiting.resend.idle':
    [],
  'confirmed: dialog.close -> closed': [],
  'failed: dialog.close -> closed': [],
  'cancelled: dialog.close -> closed': [],
} as const satisfies EffectTable;
