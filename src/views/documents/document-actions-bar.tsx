// Every action a person may take on one document, where they see it: the details panel beside the list
// and the document page (spec 000 §4 "Rules", §5, §6). The flags decide what is offered (flowLinksOf,
// documentActionsOf: once the person archived the document, nothing of signing, reviewing or the flow;
// delete and download stay), and an action goes the row menu's way, through requestAction, to the same
// dialog and the shell's one document-actions actor. Sign and
// the sign flow are links to their screens. On a phone one button leads and the rest wait in a menu;
// wider, up to four are buttons (docs/decisions.md, "Actions on the document page").
import { useState, type ReactElement } from 'react';
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  Archive20Regular,
  ArrowDownload20Regular,
  CheckmarkCircle20Regular,
  Delete20Regular,
  DismissCircle20Regular,
  DocumentDismiss20Regular,
  Edit20Regular,
  MoreHorizontal20Regular,
  PenSparkle20Regular,
  Prohibited20Regular,
  Signature20Regular,
} from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import {
  flowLinksOf,
  documentActionsOf,
  type DocumentAction,
  type FlowLink,
} from '../../../machines/document-actions-rules';
import type { DocumentResource } from '../../../machines/types';
import { useOptionalShell } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';
import { ACTION_LABELS, DocumentActionsMenu, requestAction } from './row-actions';
import type { ActionsMenuItem } from './document-actions-menu';

type Choice = FlowLink | DocumentAction;

/**
 * Which leads: the first of these the document offers that is not destructive. The order also places
 * the others: reject beside approve, the flow's own steps, then archive and delete last.
 */
const ORDER: readonly Choice[] = [
  'sign',
  'approve',
  'startSignFlow',
  'download',
  'editSignFlow',
  'reject',
  'refuse',
  'cancelSignFlow',
  'archive',
  'delete',
];

// Never the one filled button: a slip there undoes someone's work or ends the flow for everyone.
const DESTRUCTIVE: readonly Choice[] = ['delete', 'cancelSignFlow', 'refuse', 'reject'];
// What a person came to do; archive may lead when nothing else is left, but is not pressed on them.
const EMPHASISED: readonly Choice[] = ['sign', 'approve', 'startSignFlow', 'download', 'editSignFlow'];
// From 768 px, up to this many fit the 360 px (280 px on tablets) panel as buttons in two short rows.
const MAX_WIDE_BUTTONS = 4;

const LINK_PATHS: Record<FlowLink, string> = {
  sign: '/sign',
  startSignFlow: '/signflow/new',
  editSignFlow: '/signflow/edit',
};

const LABELS: Record<Choice, MessageId> = {
  ...ACTION_LABELS,
  sign: 'documents.sign.start',
  startSignFlow: 'signflow.actions.start',
  editSignFlow: 'signflow.actions.edit',
  // Beside "Start a sign flow" and "Edit the sign flow", as the page has always said it.
  cancelSignFlow: 'signflow.actions.cancel',
};

const ICONS: Record<Choice, () => ReactElement> = {
  sign: () => <PenSparkle20Regular />,
  startSignFlow: () => <Signature20Regular />,
  editSignFlow: () => <Edit20Regular />,
  approve: () => <CheckmarkCircle20Regular />,
  reject: () => <Prohibited20Regular />,
  refuse: () => <DocumentDismiss20Regular />,
  cancelSignFlow: () => <DismissCircle20Regular />,
  archive: () => <Archive20Regular />,
  delete: () => <Delete20Regular />,
  download: () => <ArrowDownload20Regular />,
};

function isLink(choice: Choice): choice is FlowLink {
  return choice in LINK_PATHS;
}

/** What shows as buttons and what waits in the menu, in ORDER, the lead first. */
export function arrangeChoices(
  choices: readonly Choice[],
  isPhone: boolean,
): { lead: Choice | null; buttons: Choice[]; menu: Choice[] } {
  const ordered = ORDER.filter((choice) => choices.includes(choice));
  const lead = ordered.find((choice) => !DESTRUCTIVE.includes(choice)) ?? null;
  const rest = ordered.filter((choice) => choice !== lead);
  const leading = lead ? [lead] : [];
  // A menu of one is a tap for nothing: that one is a button too.
  if (rest.length <= 1 || (!isPhone && ordered.length <= MAX_WIDE_BUTTONS)) {
    return { lead, buttons: [...leading, ...rest], menu: [] };
  }
  return { lead, buttons: leading, menu: rest };
}

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  button: { minHeight: '40px', maxWidth: '100%' },
  // A phone has two buttons at most: they share the row, each a wide target.
  phoneButton: { flexGrow: 1, flexBasis: 0, minWidth: 'max-content' },
});

export function DocumentActionsBar({ document }: { document: DocumentResource }) {
  const styles = useStyles();
  const intl = useIntl();
  const [, navigate] = useLocation();
  const isPhone = useMediaQuery(MOBILE_QUERY);
  // Outside the shell (a bare panel in a test) nothing can run an action: only the links are offered.
  const shell = useOptionalShell();
  const [menuButton, setMenuButton] = useState<HTMLElement | null>(null);
  // Whether the popup is out is presentation, not behaviour: it has no machine.
  const [isMenuOpen, setMenuOpen] = useState(false);
  const [hasMenuOpened, setHasMenuOpened] = useState(false);

  const { attributes } = document;
  const choices: Choice[] = [...flowLinksOf(attributes), ...(shell ? documentActionsOf(attributes) : [])];
  const { lead, buttons, menu } = arrangeChoices(choices, isPhone);
  if (buttons.length === 0 && menu.length === 0) return null;

  const id = encodeURIComponent(document.id);
  const hrefOf = (link: FlowLink) => `${LINK_PATHS[link]}/${id}`;
  const choose = (choice: Choice) => {
    if (isLink(choice)) navigate(hrefOf(choice));
    else if (shell) requestAction(shell, choice, [document]);
  };
  const label = (choice: Choice) => intl.formatMessage({ id: LABELS[choice] });
  const buttonClass = mergeClasses(styles.button, isPhone && styles.phoneButton);

  const closeMenu = () => {
    setMenuOpen(false);
    menuButton?.focus();
  };
  const menuItems: ActionsMenuItem[] = menu.map((choice) => ({
    key: choice,
    label: label(choice),
    icon: ICONS[choice](),
    onSelect: () => {
      closeMenu();
      choose(choice);
    },
  }));

  return (
    <div
      role="group"
      className={styles.bar}
      aria-label={intl.formatMessage({ id: 'documents.actions.column' })}
    >
      {buttons.map((choice) => {
        const appearance = choice === lead && EMPHASISED.includes(choice) ? 'primary' : 'secondary';
        return isLink(choice) ? (
          <Link key={choice} href={hrefOf(choice)} asChild>
            <Button as="a" appearance={appearance} className={buttonClass} icon={ICONS[choice]()}>
              {label(choice)}
            </Button>
          </Link>
        ) : (
          <Button
            key={choice}
            appearance={appearance}
            className={buttonClass}
            icon={ICONS[choice]()}
            onClick={() => choose(choice)}
          >
            {label(choice)}
          </Button>
        );
      })}
      {menu.length > 0 && (
        <>
          <Button
            ref={setMenuButton}
            className={buttonClass}
            icon={<MoreHorizontal20Regular />}
            aria-haspopup="menu"
            aria-expanded={isMenuOpen}
            onClick={() => {
              setHasMenuOpened(true);
              setMenuOpen((wasOpen) => !wasOpen);
            }}
          >
            {intl.formatMessage({ id: 'documents.actions.moreMenu' })}
          </Button>
          {hasMenuOpened && (
            <DocumentActionsMenu
              isOpen={isMenuOpen}
              target={menuButton}
              items={menuItems}
              onClose={closeMenu}
            />
          )}
        </>
      )}
    </div>
  );
}
