// The connections tabs' part of the composition root (see compose.ts), loaded with the tabs. Each machine
// gets its API calls here; closing a dialog goes through the shell's modal actor and the sidebar's
// Connections badge through the session's profile refresh.
import { connectionsMachine } from '../../machines/connections.machine';
import { signGroupsMachine } from '../../machines/sign-groups.machine';
import {
  acceptRequest,
  addConnection,
  cancelRequest,
  fetchConnections,
  refuseRequest,
  removeConnection,
  searchProfiles,
} from '../services/connections';
import {
  deleteSignGroup,
  fetchMemberCandidates,
  fetchSignGroup,
  fetchSignGroups,
  saveSignGroup,
} from '../services/sign-groups';
import type { ModalActorRef } from './modal-context';

export type SessionRef = { send: (event: { type: 'profile.refresh' }) => void };

export function composeConnections(modal: ModalActorRef, session: SessionRef) {
  return connectionsMachine.provide({
    actors: {
      fetchConnections,
      acceptRequest,
      refuseRequest,
      cancelRequest,
      removeConnection,
      searchProfiles,
      addConnection,
    },
    actions: {
      refreshProfile: () => session.send({ type: 'profile.refresh' }),
      closeModal: () => modal.send({ type: 'modal.close' }),
    },
  });
}

export function composeSignGroups(modal: ModalActorRef) {
  return signGroupsMachine.provide({
    actors: { fetchSignGroups, fetchSignGroup, fetchMemberCandidates, saveSignGroup, deleteSignGroup },
    actions: { closeModal: () => modal.send({ type: 'modal.close' }) },
  });
}
