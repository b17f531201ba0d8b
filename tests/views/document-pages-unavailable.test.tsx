import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { documentMachine } from '../../machines/document.machine';
import { sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { DocumentViewer } from '../../src/views/document/document-viewer';
import { renderView } from './render';

function viewerOf(document: DocumentResource) {
  const actor = createActor(
    documentMachine.provide({ actors: { fetchDocument: fromPromise(async () => document) } }),
    { input: { documentId: document.id } },
  );
  actor.start();
  return actor;
}

const PAGES = ['/storage/paraph/documents/d1/pages/1.png', '/app/page-unavailable.svg'];

describe('document viewer: pages the server could not render', () => {
  it('says that some pages could not be shown, and shows every page in its place', async () => {
    const actor = viewerOf(
      sampleDocument('d1', { publicImagesFileUrls: PAGES, unavailablePages: [2], pdfUrl: '/storage/d1.pdf' }),
    );

    renderView(<DocumentViewer document={actor} />);

    const notice = await screen.findByText('Some pages could not be shown.');
    expect(notice.closest('[aria-hidden="true"]')).toBeNull();
    // Page 2 keeps its place, drawn by the placeholder.
    expect(screen.getByRole('img').getAttribute('src')).toBe(PAGES[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByRole('img').getAttribute('src')).toBe(PAGES[1]);
  });

  it('says nothing when every page rendered', async () => {
    const actor = viewerOf(
      sampleDocument('d1', { publicImagesFileUrls: [PAGES[0] ?? ''], unavailablePages: [], pdfUrl: null }),
    );

    renderView(<DocumentViewer document={actor} />);

    expect((await screen.findByRole('img')).getAttribute('src')).toBe(PAGES[0]);
    expect(screen.queryByText('Some pages could not be shown.')).toBeNull();
  });
});
