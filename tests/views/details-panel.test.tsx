import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { documentDetailsMachine, type SignFlowParticipants } from '../../machines/document-details.machine';
import { SAMPLE_SIGN_FLOW_PARTICIPANTS, sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { ApiError } from '../../src/api/errors';
import { DetailsPanel } from '../../src/views/documents/details-panel';
import { renderView } from './render';

const FLOW = sampleDocument('d1', {
  originalFilename: '"><img src=x onerror=alert(1)>.pdf',
  state: 'awaiting_signs',
  isSignFlow: true,
  isOwner: false,
  creatorFullName: 'Bob Builder',
  humanFilesize: '48 KB',
  signatoryCount: 2,
  signedCount: 1,
  currentUserCanSign: true,
});

function detailsWith(
  documents: Record<string, DocumentResource>,
  signFlow: () => Promise<SignFlowParticipants> = async () => SAMPLE_SIGN_FLOW_PARTICIPANTS,
) {
  const fetchDocument = vi.fn(async ({ documentId }: { documentId: string }) => {
    const document = documents[documentId];
    if (!document) throw new ApiError({ code: 'not_found', status: 404 });
    return document;
  });
  const fetchSignFlow = vi.fn(signFlow);
  const logic = documentDetailsMachine.provide({
    actors: {
      fetchDocument: fromPromise<DocumentResource, { documentId: string }>(({ input }) =>
        fetchDocument(input),
      ),
      fetchSignFlow: fromPromise<SignFlowParticipants, { documentId: string }>(() => fetchSignFlow()),
    },
  });
  return { logic, fetchDocument, fetchSignFlow };
}

/** Each participant of a list as shown: their name (or e-mail address) and the state beside it. */
function peopleIn(region: HTMLElement): (string | null)[][] {
  return within(region)
    .getAllByRole('listitem')
    .map((item) => Array.from(item.children, (part) => part.textContent));
}

describe('details panel', () => {
  it("shows the size from the byte count in the interface's format, not the API's English text", async () => {
    const { logic } = detailsWith({
      d1: sampleDocument('d1', { fileSize: 1.5 * 1024 * 1024, humanFilesize: 'the server text' }),
    });
    renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);
    const panel = await screen.findByRole('complementary', { name: 'Document details' });
    expect(await within(panel).findByText(/^1\.5\sMB$/)).toBeVisible();
    expect(within(panel).queryByText('the server text')).toBeNull();
  });

  it('shows the document, its participants with their states, the open button and the preview', async () => {
    const { logic } = detailsWith({ d1: FLOW });
    renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);

    const panel = await screen.findByRole('complementary', { name: 'Document details' });
    const reviewers = await within(panel).findByRole('region', { name: 'Reviewers' });
    // The owner, and again as a signatory.
    expect(within(panel).getAllByText('Bob Builder')).toHaveLength(2);
    // A name with markup is text, never HTML.
    expect(within(panel).getByText('"><img src=x onerror=alert(1)>.pdf')).toBeVisible();
    expect(panel.querySelectorAll('img[src="x"]')).toHaveLength(0);
    expect(within(panel).getByText('48 KB')).toBeVisible();
    expect(within(panel).getByText('Waiting for you (1/2 signed)')).toBeVisible();
    expect(within(panel).getByText('Jan 1 2030, 09:00', { exact: false })).toBeVisible();

    expect(peopleIn(reviewers)).toEqual([['Grace Hopper', 'Approved']]);
    const signatories = within(panel).getByRole('region', { name: 'Signatories' });
    expect(peopleIn(signatories)).toEqual([
      ['Bob Builder', expect.stringMatching(/^Signed Jan 2 2030/)],
      // Without a name the e-mail address stands for the participant.
      ['carol@paraph.test', 'Waiting'],
    ]);

    const open = within(panel).getByRole('link', { name: 'Open document' });
    expect(open.getAttribute('href')).toBe('/document/d1');
    const preview = within(panel).getByRole('img', {
      name: `First page of ${FLOW.attributes.originalFilename}`,
    });
    expect(preview.getAttribute('src')).toBe(FLOW.attributes.publicImagesFileUrls[0]);
  });

  it('says who ended a flow for the people who had not acted: the owner, or enough signatures', async () => {
    const ended = (state: 'cancelled' | 'signed' | 'refused') =>
      sampleDocument(state, { state, isSignFlow: true, signatoryCount: 2, signedCount: 1 });
    const untouched = {
      reviewers: [],
      signatories: [
        {
          id: 's1',
          role: 'signatory' as const,
          fullName: 'Carol Shaw',
          emailAddress: 'carol@paraph.test',
          state: 'otherrefused' as const,
          signedAt: null,
          refusedAt: null,
        },
      ],
    };
    const { logic } = detailsWith(
      { cancelled: ended('cancelled'), signed: ended('signed'), refused: ended('refused') },
      async () => untouched,
    );
    for (const [id, text] of [
      ['cancelled', 'Sign flow cancelled'],
      ['signed', 'Not needed: the document is signed'],
      ['refused', 'Another signatory refused'],
    ] as const) {
      const view = renderView(<DetailsPanel logic={logic} selectedIds={[id]} />);
      const signatories = await screen.findByRole('region', { name: 'Signatories' });
      expect(peopleIn(signatories)).toEqual([['Carol Shaw', text]]);
      view.unmount();
    }
  });

  it('says quietly that the participants could not be loaded when the sign flow call fails', async () => {
    const { logic } = detailsWith({ d1: FLOW }, async () => {
      throw new ApiError({ code: 'not_implemented', status: 501 });
    });
    renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);
    expect(await screen.findByText('Could not load participants.')).toBeVisible();
    expect(screen.getByText('48 KB')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not ask for participants of a document without a sign flow, and shows the processing text', async () => {
    const { logic, fetchSignFlow } = detailsWith({
      d2: sampleDocument('d2', { processing: true, publicImagesFileUrls: [] }),
    });
    renderView(<DetailsPanel logic={logic} selectedIds={['d2']} />);
    expect(await screen.findByText('This document is still being processed.')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Signatories' })).toBeNull();
    expect(fetchSignFlow).not.toHaveBeenCalled();
  });

  it('offers Sign and Start a sign flow, but neither once the person archived the document', async () => {
    const flags = { currentUserCanSign: true, currentUserCanCreateSignFlow: true };
    const { logic } = detailsWith({
      d1: sampleDocument('d1', flags),
      d2: sampleDocument('d2', { ...flags, currentUserArchived: true }),
    });
    const { unmount } = renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);
    const panel = await screen.findByRole('complementary', { name: 'Document details' });
    expect((await within(panel).findByRole('link', { name: 'Sign' })).getAttribute('href')).toBe('/sign/d1');
    expect(within(panel).getByRole('link', { name: 'Start a sign flow' }).getAttribute('href')).toBe(
      '/signflow/new/d1',
    );
    unmount();

    renderView(<DetailsPanel logic={logic} selectedIds={['d2']} />);
    const archived = await screen.findByRole('complementary', { name: 'Document details' });
    await within(archived).findByText('d2.pdf');
    expect(within(archived).queryByRole('link', { name: 'Sign' })).toBeNull();
    expect(within(archived).queryByRole('link', { name: 'Start a sign flow' })).toBeNull();
  });

  it('shows the count of a multi-selection and a hint without a selection', async () => {
    const { logic, fetchDocument } = detailsWith({});
    const { rerender } = renderView(<DetailsPanel logic={logic} selectedIds={[]} />);
    expect(screen.getByText('Select a document to see its details.')).toBeVisible();
    rerender(<DetailsPanel logic={logic} selectedIds={['d1', 'd2', 'd3']} />);
    expect(await screen.findByText('3 documents selected')).toBeVisible();
    expect(fetchDocument).not.toHaveBeenCalled();
  });

  it('follows a new selection and offers a retry when the document cannot be loaded', async () => {
    const { logic, fetchDocument } = detailsWith({ d1: FLOW });
    const user = userEvent.setup();
    const { rerender } = renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);
    expect(await screen.findByText('48 KB')).toBeVisible();
    rerender(<DetailsPanel logic={logic} selectedIds={['gone']} />);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The details could not be loaded.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(fetchDocument).toHaveBeenCalledTimes(3);
    expect(fetchDocument.mock.calls.map(([input]) => input.documentId)).toEqual(['d1', 'gone', 'gone']);
  });

  it('leaves out the open button and the preview on the document page', async () => {
    const { logic } = detailsWith({ d1: FLOW });
    renderView(<DetailsPanel logic={logic} selectedIds={['d1']} variant="page" />);
    expect(await screen.findByText('48 KB')).toBeVisible();
    expect(await screen.findByText('Grace Hopper')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Open document' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
