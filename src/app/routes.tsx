// The spec's route table (spec 001 §2) under the /app base. Public: login and auth. Everything else
// renders inside the shell once the session has the profile; unknown paths go to /app/documents.
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { Busy } from '../views/busy';
import { Shell } from '../views/shell/shell';
import { categoryOfSlug } from '../views/documents/categories';
import type { DocumentCategory } from '../../machines/types';
import type { DocumentPageMode } from '../views/document/document-page';
import type { SignPage } from '../views/sign/sign-screen';
import type { PlacementPageProps } from '../views/signflow/sign-flow-screen';
import { ErrorBoundary } from './error-boundary';
import { useModalActor } from './modal-context';
import { Protected } from './protected';
import { SessionContext } from './session';
import { useShell } from './shell-context';
import { loadDocumentScreen, loadListScreen, loadSettingsScreen, loadSignScreen } from './route-modules';
import { preloadedLazy } from '../views/preloaded-lazy';

const LoginPage = lazy(() => import('../views/login/login-page').then((m) => ({ default: m.LoginPage })));
const AuthPage = lazy(() => import('../views/login/auth-page').then((m) => ({ default: m.AuthPage })));
// The list and its machine load together; a list link opened cold has them preloaded (preload.ts), and
// the list then renders without waiting.
const DocumentList = preloadedLazy(
  loadListScreen,
  ([list, compose]) =>
    function ComposedDocumentList(props: { category: DocumentCategory; query: string }) {
      return <list.DocumentList {...props} logic={compose.documentListLogic} />;
    },
  <Loading />,
);
// The document screen's machine is composed in its own module, so it loads with the screen; a document
// link opened cold has it preloaded (preload.ts), and it then renders without waiting.
const DocumentPage = preloadedLazy(
  loadDocumentScreen,
  ([page, compose, details]) =>
    function ComposedDocumentPage(props: { id: string; mode: DocumentPageMode }) {
      return (
        <page.DocumentPage
          {...props}
          logic={compose.documentLogic}
          detailsLogic={details.documentDetailsLogic}
        />
      );
    },
  <Loading />,
);
const DownloadPage = lazy(async () => {
  const [page, compose] = await Promise.all([
    import('../views/download/download-page'),
    import('./compose-download'),
  ]);
  return {
    default: function DownloadPageWithLogic(props: { id: string }) {
      const shell = useShell();
      const logic = useMemo(() => compose.composeDownload(shell), [shell]);
      return <page.DownloadPage {...props} logic={logic} />;
    },
  };
});
// The connections tabs and their machines load together, composed with the shell's modal actor and
// the session (accepting or refusing a request refreshes the profile, so the sidebar badge follows).
const ConnectionsTab = lazy(async () => {
  const [users, groups, compose] = await Promise.all([
    import('../views/connections/connections-page'),
    import('../views/connections/sign-groups-page'),
    import('./compose-connections'),
  ]);
  return {
    default: function ConnectionsTabWithLogic({ tab }: { tab: 'users' | 'groups' }) {
      const modal = useModalActor();
      const session = SessionContext.useActorRef();
      const usersLogic = useMemo(() => compose.composeConnections(modal, session), [modal, session]);
      const groupsLogic = useMemo(() => compose.composeSignGroups(modal), [modal]);
      return tab === 'users' ? (
        <users.ConnectionsPage logic={usersLogic} />
      ) : (
        <groups.SignGroupsPage logic={groupsLogic} />
      );
    },
  };
});

// The placement editor and its machine (and Konva, which its canvas loads in turn) come only with its own
// page.
const SignaturePlacementPage = lazy(async () => {
  const [page, compose] = await Promise.all([
    import('../views/signflow/placement/signature-placement-page'),
    import('./compose-placement'),
  ]);
  return {
    default: function ComposedSignaturePlacementPage(props: PlacementPageProps) {
      return (
        <page.SignaturePlacementPage
          {...props}
          logic={compose.signaturePlacementLogic}
          Stage={compose.PlacementStage}
        />
      );
    },
  };
});

// The sign flow form and its placement page share one layout (one form actor), loaded with its machine.
const SignFlowScreen = lazy(async () => {
  const [screen, compose] = await Promise.all([
    import('../views/signflow/sign-flow-screen'),
    import('./compose-signflow'),
  ]);
  return {
    default: function SignFlowScreenWithLogic(props: {
      mode: 'new' | 'edit';
      documentId: string;
      page: 'form' | 'signatures';
    }) {
      const profile = SessionContext.useSelector((snapshot) => snapshot.context.profile);
      const self = useMemo(
        () => (profile ? { emailAddress: profile.emailAddress, fullName: profile.fullName || null } : null),
        [profile],
      );
      return (
        <screen.SignFlowScreen
          {...props}
          logic={compose.signFlowFormLogic}
          self={self}
          PlacementPage={SignaturePlacementPage}
        />
      );
    },
  };
});
// The settings screen and its machine, composed with the shell (a save shows the saved language through
// the language actor and refreshes the session's profile).
const SettingsScreen = lazy(async () => {
  const [page, compose] = await loadSettingsScreen();
  return {
    default: function SettingsWithLogic() {
      const shell = useShell();
      const logic = useMemo(() => compose.composeSettings(shell), [shell]);
      return <page.SettingsPage logic={logic} />;
    },
  };
});
// The sign screen, its placement page and its preview share one layout (one signing actor). The profile
// gives the signer's address (their place in a flow) and the settings' default location; the
// placement editor is the sign flows' one.
const SignScreen = preloadedLazy(
  loadSignScreen,
  ([screen, compose]) =>
    function SignScreenWithLogic(props: { documentId: string; page: SignPage }) {
      const profile = SessionContext.useSelector((snapshot) => snapshot.context.profile);
      const shell = useShell();
      const logic = useMemo(() => compose.composeSigning(shell), [shell]);
      const self = useMemo(
        () => ({ emailAddress: profile?.emailAddress ?? '', fullName: profile?.fullName || null }),
        [profile],
      );
      return (
        <screen.SignScreen
          {...props}
          logic={logic}
          self={self}
          defaultLocation={profile?.location ?? ''}
          PlacementPage={SignaturePlacementPage}
        />
      );
    },
  <Loading />,
);
const ReleasesPage = lazy(() =>
  import('../views/releases/releases-page').then((m) => ({ default: m.ReleasesPage })),
);
const FaqPage = lazy(() => import('../views/help/faq-page').then((m) => ({ default: m.FaqPage })));
const InvitePage = lazy(async () => {
  const [page, compose] = await Promise.all([
    import('../views/signflow/invite-page'),
    import('./compose-invite'),
  ]);
  return {
    default: function InvitePageWithLogic(props: { inviteId: string }) {
      const shell = useShell();
      const logic = useMemo(() => compose.composeInviteAccept(shell), [shell]);
      return <page.InvitePage {...props} logic={logic} />;
    },
  };
});

// The verification page and its machine load together, inside the app for someone signed in and on its
// own for anyone else: a recipient without an account must be able to check what they were sent.
const VerifyScreen = lazy(async () => {
  const [page, compose] = await Promise.all([
    import('../views/verify/verify-page'),
    import('./compose-verification'),
  ]);
  return { default: () => <page.VerifyPage logic={compose.verificationLogic} /> };
});
const PublicVerifyScreen = lazy(async () => {
  const [page, compose] = await Promise.all([
    import('../views/verify/public-verify-page'),
    import('./compose-verification'),
  ]);
  return { default: () => <page.PublicVerifyPage logic={compose.verificationLogic} /> };
});

/** Inside the shell when there is a session (a token to load the profile with), on its own otherwise. */
function VerifyRoute() {
  const hasToken = SessionContext.useSelector((snapshot) => snapshot.context.token !== null);
  if (hasToken) {
    return (
      <SignedIn>
        <VerifyScreen />
      </SignedIn>
    );
  }
  return (
    <ErrorBoundary>
      <Suspense fallback={<Loading />}>
        <PublicVerifyScreen />
      </Suspense>
    </ErrorBoundary>
  );
}

function SignFlowRoute(params: { mode?: string; id?: string; page?: string }) {
  const { mode, id, page } = params;
  if (!id || (mode !== 'new' && mode !== 'edit') || (page !== undefined && page !== 'signatures')) {
    return <Redirect to="/documents" replace />;
  }
  // One element for the form and its /signatures page, so the form actor lives across both.
  return (
    <SignFlowScreen key={`${mode}:${id}`} mode={mode} documentId={id} page={page ? 'signatures' : 'form'} />
  );
}

function SignRoute({ id, page }: { id?: string; page?: string }) {
  if (!id || (page !== undefined && page !== 'signature' && page !== 'signature-preview')) {
    return <Redirect to="/documents" replace />;
  }
  // One element for the form and its two pages, so the signing actor lives across them.
  return <SignScreen key={id} documentId={id} page={page ?? 'form'} />;
}

function Loading() {
  const intl = useIntl();
  return <Busy label={intl.formatMessage({ id: 'app.loading' })} />;
}

function ListRoute({ category }: { category: DocumentCategory }) {
  return <DocumentList key={category} category={category} query={useSearch()} />;
}

function CategoryRoute({ slug }: { slug: string | undefined }) {
  const category = categoryOfSlug(slug);
  return category ? <ListRoute category={category} /> : <Redirect to="/documents" replace />;
}

function DocumentRoute({ id, mode }: { id: string | undefined; mode: DocumentPageMode }) {
  if (!id) return <Redirect to="/documents" replace />;
  return <DocumentPage key={`${mode}:${id}`} id={id} mode={mode} />;
}

function SignedIn({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <Protected>
      <Shell>
        <ErrorBoundary resetKey={location}>
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </ErrorBoundary>
      </Shell>
    </Protected>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/login/:reason?">
        {(params) => (
          <Suspense fallback={<Loading />}>
            <LoginPage reason={params.reason} />
          </Suspense>
        )}
      </Route>
      <Route path="/auth">
        <Suspense fallback={<Loading />}>
          <AuthPage />
        </Suspense>
      </Route>
      <Route path="/verify">
        <VerifyRoute />
      </Route>
      <Route>
        <SignedIn>
          <Switch>
            <Route path="/documents">
              <ListRoute category="active" />
            </Route>
            <Route path="/documents/:category">{(params) => <CategoryRoute slug={params.category} />}</Route>
            <Route path="/archive">
              <ListRoute category="archived" />
            </Route>
            <Route path="/document/details/:id">
              {(params) => <DocumentRoute id={params.id} mode="details" />}
            </Route>
            <Route path="/document/view/:id">
              {(params) => <DocumentRoute id={params.id} mode="view" />}
            </Route>
            <Route path="/document/:id">{(params) => <DocumentRoute id={params.id} mode="full" />}</Route>
            <Route path="/download/:id">{(params) => <DownloadPage key={params.id} id={params.id} />}</Route>
            <Route path="/signflow/:mode/:id/:page?">{(params) => <SignFlowRoute {...params} />}</Route>
            <Route path="/sign/:id/:page?">{(params) => <SignRoute {...params} />}</Route>
            <Route path="/invites/:inviteId">
              {(params) => <InvitePage key={params.inviteId} inviteId={params.inviteId} />}
            </Route>
            <Route path="/signflowmember/invite/:inviteId">
              {(params) => <InvitePage key={params.inviteId} inviteId={params.inviteId} />}
            </Route>
            <Route path="/releases">
              <ReleasesPage />
            </Route>
            <Route path="/settings">
              <SettingsScreen />
            </Route>
            <Route path="/faq">
              <FaqPage />
            </Route>
            <Route path="/connections">
              <Redirect to="/connections/users" replace />
            </Route>
            <Route path="/connections/users">
              <ConnectionsTab key="users" tab="users" />
            </Route>
            <Route path="/connections/groups">
              <ConnectionsTab key="groups" tab="groups" />
            </Route>
            <Route>
              <Redirect to="/documents" replace />
            </Route>
          </Switch>
        </SignedIn>
      </Route>
    </Switch>
  );
}
