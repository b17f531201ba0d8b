// A browser effect that follows the sign flow form's actor, composed here so the screen's views import no
// service: a sign flow draft kept when the session ends under it (the form's state is read at that
// moment, never copied into another actor). The sign screen's own is in signing-effects.ts.
import { useEffect } from 'react';
import type { AnyActorRef } from 'xstate';
import { draftOf, type SignFlowFormContext } from '../../machines/sign-flow-form.machine';
import { onUnauthorized } from '../api/client';
import { storeDraft } from '../services/sign-flow-form';

type FormActor = Pick<AnyActorRef, 'getSnapshot'>;

/** A 401 while the form is being edited or saved keeps its draft, which the next sign-in restores. */
export function useDraftKeptOnSignOut(form: FormActor): void {
  useEffect(
    () =>
      onUnauthorized(() => {
        const snapshot = form.getSnapshot() as {
          matches: (state: string) => boolean;
          context: SignFlowFormContext;
        };
        if (snapshot.matches('editing') || snapshot.matches('saving')) {
          storeDraft(snapshot.context.documentId, draftOf(snapshot.context));
        }
      }),
    [form],
  );
}
