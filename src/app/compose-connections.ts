// The connections tabs' part of the composition root (see compose.ts), loaded with the tabs. Each machine
// gets its API calls here; the machine decides when its dialog opens and closes, and tells the shell's modal
// actor (so the shell knows a modal is open); the sidebar's Connections badge follows the session's profile
// refresh.
import { connectionsMachine } from '../../machines/connections.machine';
import type { ModalName } from '../../machines/modal.machine';
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

function modalActions(modal: ModalActorRef) {
  return {
    openModal: (_: unknown, params: { name: ModalName }) =>
      modal.send({ type: 'modal.open', name: params.name }),
    closeModal: () => modal.send({ type: 'modal.close' }),
  };
}

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
      ...modalActions(modal),
    },
  });
}

export function composeSignGroups(modal: ModalActorRef) {
  return signGroupsMachine.provide({
    actors: { fetchSignGroups, fetchSignGroup, fetchMemberCandidates, saveSignGroup, deleteSignGroup },
    actions: modalActions(modal),
  });
}
