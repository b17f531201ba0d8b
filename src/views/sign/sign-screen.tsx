// The layout over /sign/{id}, its /signature page (the owner placing their own signature with the [4/6]
// editor) and its /signature-preview page: one signing actor lives here, so the form keeps its input
// across the three, and stops with the route, so the sign state resets on leaving (spec 001 §4). The
// confirmation dialog is the actor's child and is rendered here, over whichever page shows.
import { useState, type ComponentType } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useLocation } from 'wouter';
import type { DraftSignatory, Placement } from '../../../machines/sign-flow-draft';
import type { signingMachine } from '../../../machines/signing.machine';
import { offersPlacement } from '../../../machines/signing-rules';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { useSigningLocationForWrapper } from '../../app/signing-effects';
import { loader, preloadedLazy } from '../preloaded-lazy';
import { SignForm } from './sign-form';
import { SignaturePreview } from './signature-preview';

// The confirmation dialog, with Fluent's Dialog and tabster (its focus management), is more than half
// of the screen's code, and only a sign call opens it: its code is asked for when the form is sent,
// beside the sign call, which takes longer.
const loadConfirmationDialog = loader(() => import('./confirmation-dialog'));
const ConfirmationDialog = preloadedLazy(loadConfirmationDialog, (module) => module.ConfirmationDialog);

/** The placement editor's props (src/views/signflow/placement/signature-placement-page.tsx). */
export type PlacementPageProps = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
  onSave(placements: Placement[]): void;
  onBack(): void;
};

const NO_PAGES: string[] = [];

export type SignPage = 'form' | 'signature' | 'signature-preview';

export type SignScreenProps = {
  documentId: string;
  page: SignPage;
  logic: typeof signingMachine;
  self: { emailAddress: string; fullName: string | null };
  /** The settings' default signing location, prefilled. */
  defaultLocation: string;
  /** The placement editor, once its code is loaded; null shows the form instead. */
  PlacementPage: ComponentType<PlacementPageProps> | null;
};

export function SignScreen({
  documentId,
  page,
  logic,
  self,
  defaultLocation,
  PlacementPage,
}: SignScreenProps) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const signing = useActorRef(
    logic,
    actorOptions({ input: { documentId, emailAddress: self.emailAddress, defaultLocation } }),
  );
  usePageTitle(intl.formatMessage({ id: 'documents.sign.title' }));
  // A mobile wrapper is told the location each sign request carries.
  useSigningLocationForWrapper(signing);
  const isEditing = useSelector(signing, (snapshot) => snapshot.matches('editing'));
  const canPlace = useSelector(signing, (snapshot) => offersPlacement(snapshot.context));
  const placement = useSelector(signing, (snapshot) => snapshot.context.placement);
  const assignedPlacement = useSelector(signing, (snapshot) => snapshot.context.assignedPlacement);
  const pageUrls = useSelector(
    signing,
    (snapshot) => snapshot.context.document?.attributes.publicImagesFileUrls ?? NO_PAGES,
  );
  const isSigning = useSelector(
    signing,
    (snapshot) => snapshot.matches('submitting') || snapshot.children.confirmation !== undefined,
  );
  // Once sent for, the dialog stays mounted: it keeps its closing animation and clean-up.
  const [hasDialog, setHasDialog] = useState(false);
  if (isSigning && !hasDialog) setHasDialog(true);
  const formPath = `/sign/${encodeURIComponent(documentId)}`;
  const backToForm = () => navigate(formPath, { replace: true });

  let content = <SignForm signing={signing} documentId={documentId} />;
  if (page === 'signature' && isEditing && canPlace && PlacementPage) {
    content = (
      <PlacementPage
        documentId={documentId}
        signatories={[{ emailAddress: self.emailAddress, fullName: self.fullName, hasSigned: false }]}
        placements={placement ? [{ emailAddress: self.emailAddress, ...placement }] : []}
        onSave={(saved) => {
          const [first] = saved;
          signing.send({
            type: 'placement.saved',
            placement: first ? { pageNumber: first.pageNumber, left: first.left, top: first.top } : null,
          });
          backToForm();
        }}
        onBack={backToForm}
      />
    );
  } else if (page === 'signature-preview' && isEditing && !canPlace) {
    content = <SignaturePreview placement={assignedPlacement} pageUrls={pageUrls} onBack={backToForm} />;
  }
  return (
    <>
      {content}
      {hasDialog && <ConfirmationDialog signing={signing} />}
    </>
  );
}
