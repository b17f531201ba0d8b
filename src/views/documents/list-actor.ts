import type { ActorRefFrom } from 'xstate';
import type { documentListMachine } from '../../../machines/document-list.machine';

export type DocumentListLogic = typeof documentListMachine;
export type DocumentListActor = ActorRefFrom<DocumentListLogic>;
