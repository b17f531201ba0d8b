import type { FluentIcon } from '@fluentui/react-icons';
import {
  Archive20Regular,
  CheckmarkCircle20Regular,
  Clock20Regular,
  DocumentArrowUp20Regular,
  DocumentMultiple20Regular,
  ErrorCircle20Regular,
  People20Regular,
  ShieldCheckmark20Regular,
  TaskListLtr20Regular,
} from '@fluentui/react-icons';
import type { MessageId } from '../../i18n/messages';

export type BadgeSource = 'pendingSignFlows' | 'incomingConnectionRequests';

export type NavItem = {
  /** Path inside the router's /app base. */
  path: string;
  label: MessageId;
  icon: FluentIcon;
  badge?: { source: BadgeSource; label: MessageId };
  /** Also active for these sub-paths (connections has tabs). */
  matchPrefix?: boolean;
};

export const NAV_ITEMS: NavItem[] = [
  { path: '/documents', label: 'shell.nav.all', icon: DocumentMultiple20Regular },
  {
    path: '/documents/to-do',
    label: 'shell.nav.toDo',
    icon: TaskListLtr20Regular,
    badge: { source: 'pendingSignFlows', label: 'shell.nav.badge.toDo' },
  },
  { path: '/documents/in-progress', label: 'shell.nav.inProgress', icon: Clock20Regular },
  { path: '/documents/done', label: 'shell.nav.done', icon: CheckmarkCircle20Regular },
  { path: '/documents/failed', label: 'shell.nav.failed', icon: ErrorCircle20Regular },
  { path: '/documents/uploaded', label: 'shell.nav.uploaded', icon: DocumentArrowUp20Regular },
  { path: '/archive', label: 'shell.nav.archive', icon: Archive20Regular },
  {
    path: '/connections',
    label: 'shell.nav.connections',
    icon: People20Regular,
    badge: { source: 'incomingConnectionRequests', label: 'shell.nav.badge.connections' },
    matchPrefix: true,
  },
  // Anyone can verify a PDF, signed in or not; inside the app it sits with the other screens.
  { path: '/verify', label: 'shell.nav.verify', icon: ShieldCheckmark20Regular },
];

export function isActive(item: NavItem, location: string): boolean {
  return item.matchPrefix
    ? location === item.path || location.startsWith(`${item.path}/`)
    : location === item.path;
}
