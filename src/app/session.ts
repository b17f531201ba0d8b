// The session actor lives for the whole app as the shell's child: token, profile and its poll, 401
// handling, logout. This is how views reach it.
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from '../../machines/session.machine';
import { useShellChild, type ShellChild } from './shell-context';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export const SessionContext = {
  useActorRef(): ShellChild<'session'> {
    return useShellChild('session');
  },
  useSelector<T>(selector: (snapshot: SessionSnapshot) => T): T {
    return useSelector(useShellChild('session'), selector);
  },
};
