// The session actor lives for the whole app: token, profile and its poll, 401 handling, logout.
import { createActorContext } from '@xstate/react';
import { sessionMachine } from '../../machines/session.machine';

export const SessionContext = createActorContext(sessionMachine);
