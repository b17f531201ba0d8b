// The modal actor belongs to the shell; any screen inside it opens a modal by name through this context.
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { modalMachine } from '../../machines/modal.machine';

export type ModalActorRef = ActorRefFrom<typeof modalMachine>;

export const ModalContext = createContext<ModalActorRef | null>(null);

export function useModalActor(): ModalActorRef {
  const actor = useContext(ModalContext);
  if (!actor) throw new Error('useModalActor must be used inside the shell');
  return actor;
}
