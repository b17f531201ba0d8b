// Each row action is one call; an answered or removed request reloads the list (a raised
// connections.reload, the next microstep) and, when it changes the inbound count, the profile's badge.
// The add dialog searches after SEARCH_DEBOUNCE and closes itself after a successful add.
import type { EffectTable } from './table';

export const CONNECTIONS_EFFECTS = {
  '(start)': ['invoke fetchConnections'],
  'list.loading: xstate.done.actor.fetchConnections #1 [hasNoConnections] -> list.empty': [],
  'list.loading: xstate.done.actor.fetchConnections #2 -> list.loaded': [],
  'list.loading: xstate.error.actor.fetchConnections -> list.failed': [],
  'list.*: connections.reload -> list.loading (on list)': ['invoke fetchConnections'],
  'row.idle: request.accept [isInboundRequest] -> row.running.accept': ['invoke acceptRequest'],
  'row.idle: request.refuse [isInboundRequest] -> row.running.refuse': ['invoke refuseRequest'],
  'row.idle: request.cancel [isOutboundRequest] -> row.running.cancel': ['invoke cancelRequest'],
  'row.idle: connection.remove [isListedConnection] -> row.confirmingRemove': [],
  'row.confirmingRemove: remove.confirm -> row.running.remove': ['invoke removeConnection'],
  'row.confirmingRemove: remove.dismiss -> row.idle': [],
  'row.running.accept: xstate.done.actor.acceptRequest -> row.idle': ['refreshProfile', 'reloadList'],
  'row.running.accept: xstate.error.actor.acceptRequest -> row.failed': [],
  'row.running.refuse: xstate.done.actor.refuseRequest -> row.idle': ['refreshProfile', 'reloadList'],
  'row.running.refuse: xstate.error.actor.refuseRequest -> row.failed': [],
  'row.running.cancel: xstate.done.actor.cancelRequest -> row.idle': ['reloadList'],
  'row.running.cancel: xstate.error.actor.cancelRequest -> row.failed': [],
  'row.running.remove: xstate.done.actor.removeConnection -> row.idle': ['reloadList'],
  'row.running.remove: xstate.error.actor.removeConnection -> row.failed': [],
  'row.failed: request.accept [isInboundRequest] -> row.running.accept': ['invoke acceptRequest'],
  'row.failed: request.refuse [isInboundRequest] -> row.running.refuse': ['invoke refuseRequest'],
  'row.failed: request.cancel [isOutboundRequest] -> row.running.cancel': ['invoke cancelRequest'],
  'row.failed: connection.remove [isListedConnection] -> row.confirmingRemove': [],
  'row.failed: action.dismissError -> row.idle': [],
  'add.closed: add.open -> add.open': ['openModal'],
  'add.open.form.*: add.queryChanged #1 [isSearchable] -> add.open.form.debouncing (on add.open.form)': [
    'after SEARCH_DEBOUNCE',
  ],
  'add.open.form.*: add.queryChanged #2 -> add.open.form.idle (on add.open.form)': [],
  'add.open.*: add.close -> add.closed (on add.open)': ['closeModal'],
  'add.open.form.debouncing: xstate.after.SEARCH_DEBOUNCE.connections.add.open.form.debouncing -> add.open.form.searching':
    ['invoke searchProfiles'],
  'add.open.form.searching: xstate.done.actor.searchProfiles #1 [hasOffer] -> add.open.form.found': [],
  'add.open.form.searching: xstate.done.actor.searchProfiles #2 -> add.open.form.notFound': [],
  'add.open.form.searching: xstate.error.actor.searchProfiles -> add.open.form.searchFailed': [],
  'add.open.form.found: add.submit -> add.open.sending': ['invoke addConnection'],
  'add.open.form.notFound: add.submit [isInvitable] -> add.open.sending': ['invoke addConnection'],
  'add.open.form.sendFailed: add.submit -> add.open.sending': ['invoke addConnection'],
  'add.open.sending: xstate.done.actor.addConnection -> add.closed': ['closeModal', 'reloadList'],
  'add.open.sending: xstate.error.actor.addConnection -> add.open.form.sendFailed': [],
} as const satisfies EffectTable;
