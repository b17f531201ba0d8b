// The modal actor belongs to the shell; any screen inside it opens a modal by name through it.
import type { ActorRefFrom } from 'xstate';
import type { modalMachine } from '../../machines/modal.machine';
import { useShellChild } from './shell-context';

export type ModalActorRef = ActorRefFrom<typeof modalMachine>;

export function useModalActor(): ModalActorRef {
  return useShellChild('modal');
}
