// The layout over /signflow/{new,edit}/{id} and its /signatures page: one form actor and one search actor
// live here, so the draft survives a visit to the placement editor and back. The search runs over the
// form's lists, sent to it whenever they change; its picks go to the form. A 401 while the screen is open
// keeps the draft in session storage, so the form is found as it was after signing in again.
import { useEffect, useMemo, type ComponentType } from 'react';
import { Text } from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useLocation } from 'wouter';
import {
  participantSearchMachine,
  type Person,
  type SearchSources,
} from '../../../machines/participant-search.machine';
import type { DraftSignatory, Placement } from '../../../machines/sign-flow-draft';
import {
  canChangeReviewers,
  type FormMode,
  type signFlowFormMachine,
} from '../../../machines/sign-flow-form.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { useDraftKeptOnSignOut } from '../../app/screen-effects';
import { SignFlowForm } from './sign-flow-form';

/** The placement editor's props (helper P's SignaturePlacementPage). */
export type PlacementPageProps = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
  onSave(placements: Placement[]): void;
  onBack(): void;
};

export type SignFlowScreenProps = {
  mode: FormMode;
  documentId: string;
  page: 'form' | 'signatures';
  logic: typeof signFlowFormMachine;
  self: Person | null;
  /** The placement editor, once its code is loaded; null shows a placeholder. */
  PlacementPage: ComponentType<PlacementPageProps> | null;
};

function PlacementPlaceholder() {
  const intl = useIntl();
  return <Text role="status">{intl.formatMessage({ id: 'signflow.placement.unavailable' })}</Text>;
}

export function SignFlowScreen({ mode, documentId, page, logic, self, PlacementPage }: SignFlowScreenProps) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const form = useActorRef(logic, actorOptions({ input: { documentId, mode } }));
  const initialSources: SearchSources = {
    self,
    connections: [],
    groups: [],
    reviewers: [],
    signatories: [],
    canChangeReviewers: false,
  };
  const search = useActorRef(participantSearchMachine, actorOptions({ input: { sources: initialSources } }));
  usePageTitle(intl.formatMessage({ id: mode === 'new' ? 'signflow.new.title' : 'signflow.edit.title' }));

  const reviewers = useSelector(form, (snapshot) => snapshot.context.reviewers);
  const signatories = useSelector(form, (snapshot) => snapshot.context.signatories);
  const connections = useSelector(form, (snapshot) => snapshot.context.connections);
  const groups = useSelector(form, (snapshot) => snapshot.context.groups);
  const flow = useSelector(form, (snapshot) => snapshot.context.flow);
  const placements = useSelector(form, (snapshot) => snapshot.context.placements);
  const isEditing = useSelector(form, (snapshot) => snapshot.matches('editing'));

  const sources = useMemo<SearchSources>(
    () => ({
      self,
      connections,
      groups,
      reviewers,
      signatories,
      canChangeReviewers: canChangeReviewers({ flow }),
    }),
    [self, connections, groups, reviewers, signatories, flow],
  );
  useEffect(() => {
    search.send({ type: 'sources.changed', sources });
  }, [search, sources]);

  useEffect(() => {
    const subscription = search.on('participants.picked', (event) =>
      form.send({ type: 'participants.add', role: event.role, people: event.people }),
    );
    return () => subscription.unsubscribe();
  }, [search, form]);

  useDraftKeptOnSignOut(form);

  const formPath = `/signflow/${mode}/${encodeURIComponent(documentId)}`;

  if (page === 'signatures' && isEditing) {
    if (!PlacementPage) return <PlacementPlaceholder />;
    return (
      <PlacementPage
        documentId={documentId}
        signatories={signatories}
        placements={placements}
        onSave={(saved) => {
          form.send({ type: 'placements.saved', placements: saved });
          navigate(formPath, { replace: true });
        }}
        onBack={() => navigate(formPath, { replace: true })}
      />
    );
  }
  return <SignFlowForm form={form} search={search} placementHref={`${formPath}/signatures`} />;
}
