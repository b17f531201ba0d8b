// jsdom has no canvas: the Konva stage is replaced by a stub with the same props, whose buttons stand in
// for a click on the page, a click on a box and a drag. Everything else is the real page.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { sampleDocument } from '../../machines/samples';
import type { DraftSignatory, Placement } from '../../machines/sign-flow-draft';
import type { DocumentResource } from '../../machines/types';
import type { PlacementStageProps } from '../../src/canvas/placement-stage';
import { SignaturePlacementPage } from '../../src/views/signflow/placement/signature-placement-page';
import { findOpenDialog, renderView } from './render';

const documents = vi.hoisted(() => ({
  next: null as null | (() => Promise<DocumentResource>),
}));

vi.mock('../../src/services/documents', () => ({
  fetchDocument: fromPromise<DocumentResource, { documentId: string }>(() => {
    if (!documents.next) throw new Error('no document prepared');
    return documents.next();
  }),
}));

vi.mock('../../src/canvas/placement-stage', () => ({
  PlacementStage: (props: PlacementStageProps) => (
    <div data-testid="stage" data-url={props.imageUrl}>
      <button type="button" onClick={() => props.onPageClick(0.5, 0.5)}>
        stub: click the page
      </button>
      {props.boxes.map((box) => (
        <span key={box.emailAddress}>
          <button type="button" onClick={() => props.onBoxClick(box.emailAddress)}>
            {`stub box ${box.number} ${box.name}${box.isSigned ? ' signed' : ''} at ${box.left},${box.top}`}
          </button>
          <button
            type="button"
            onClick={() => {
              props.onDragStart(box.emailAddress);
              props.onDrop(box.emailAddress, 0.9, 0.9);
            }}
          >
            {`stub: drag ${box.number}`}
          </button>
        </span>
      ))}
      <button type="button" onClick={() => props.onImageError()}>
        stub: image fails
      </button>
    </div>
  ),
}));

const ADA: DraftSignatory = { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace', hasSigned: false };
const BOB: DraftSignatory = { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder', hasSigned: false };
const CAROL: DraftSignatory = { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw', hasSigned: true };
const TWO_PAGES = sampleDocument('d1', { publicImagesFileUrls: ['/p/1.png', '/p/2.png'] });

function setWidth(width: number) {
  window.innerWidth = width;
  window.matchMedia = ((query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+)px/.exec(query);
    const matches = (min ? width >= Number(min[1]) : true) && (max ? width <= Number(max[1]) : true);
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    };
  }) as typeof window.matchMedia;
}

// The page measures its width; jsdom lays nothing out.
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });

afterEach(() => {
  documents.next = null;
});

function renderEditor({
  signatories = [ADA, BOB, CAROL],
  placements = [] as Placement[],
  document = TWO_PAGES,
  width = 1280,
} = {}) {
  setWidth(width);
  documents.next = async () => document;
  const onSave = vi.fn();
  const onBack = vi.fn();
  renderView(
    <SignaturePlacementPage
      documentId="d1"
      signatories={signatories}
      placements={placements}
      onSave={onSave}
      onBack={onBack}
    />,
  );
  return { onSave, onBack };
}

describe('SignaturePlacementPage', () => {
  it('goes back at once when there is no signatory', async () => {
    const { onBack } = renderEditor({ signatories: [] });
    await waitFor(() => expect(onBack).toHaveBeenCalledTimes(1));
  });

  it('shows the not-generated notice with a retry while the images are rendered', async () => {
    const { onBack } = renderEditor({
      document: sampleDocument('d1', { processing: true, publicImagesFileUrls: [] }),
    });
    expect(await screen.findByText(/have not been generated yet/)).toBeTruthy();
    documents.next = async () => TWO_PAGES;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('stage')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('shows the image error when a page image fails to load', async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole('button', { name: 'stub: image fails' }));
    expect(await screen.findByText('The page images could not be loaded.')).toBeTruthy();
  });

  it('lists only unsigned signatories in the add dialog and lists the placed signature', async () => {
    const carolBox = { emailAddress: CAROL.emailAddress, pageNumber: 2, left: 0.5, top: 0.5 };
    const { onSave } = renderEditor({ placements: [carolBox] });
    const list = await screen.findByRole('list', { name: 'Signatures' });
    expect(within(list).getByText('Carol Shaw')).toBeTruthy();
    expect(within(list).getByText('Signed: cannot be changed')).toBeTruthy();
    expect(within(list).queryByRole('button', { name: /Remove the signature/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'stub: click the page' }));
    const dialog = await findOpenDialog('Add a signature');
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    expect(within(dialog).queryByText(/Carol Shaw/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(list).getByText('Ada Lovelace')).toBeTruthy());
    expect(within(list).getByRole('button', { name: 'Remove the signature of Ada Lovelace' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Save the signatures' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]?.[0]).toEqual([
      { emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.36, top: 0.425 },
      carolBox,
    ]);
  });

  it('edits a placed box: the signatory changes, or the box is removed; a drop is clamped', async () => {
    renderEditor({ placements: [{ emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.1, top: 0.2 }] });
    await userEvent.click(await screen.findByRole('button', { name: /stub box 1 Ada Lovelace/ }));
    let dialog = await findOpenDialog('Edit the signature');
    await userEvent.click(within(dialog).getByRole('radio', { name: /Bob Builder/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'stub box 2 Bob Builder at 0.1,0.2' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'stub: drag 2' }));
    expect(await screen.findByRole('button', { name: 'stub box 2 Bob Builder at 0.72,0.85' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: /stub box 2 Bob Builder/ }));
    dialog = await findOpenDialog('Edit the signature');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /stub box 2/ })).toBeNull());
    expect(screen.getByText(/No signature is placed yet/)).toBeTruthy();
  });

  it('places, moves and removes a signature by keyboard, announcing each change', async () => {
    renderEditor();
    await screen.findByTestId('stage');
    await userEvent.selectOptions(screen.getByLabelText('Signatory to place'), BOB.emailAddress);
    await userEvent.click(screen.getByRole('button', { name: 'Place' }));
    const box = await screen.findByRole('button', { name: 'Move the signature 2: Bob Builder' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByRole('status').textContent).toContain('Signature of Bob Builder placed on page 1');
    await userEvent.keyboard('{ArrowRight}');
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(screen.getByRole('button', { name: 'stub box 2 Bob Builder at 0.37,0.475' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      'Signature of Bob Builder: 37 % from the left, 48 % from the top.',
    );
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('status').textContent).toBe('Signature of Bob Builder placed on page 1.');
    act(() => {
      fireEvent.keyDown(box, { key: 'Delete' });
    });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Signature of Bob Builder removed.'),
    );
    expect(screen.getByText('No signature on this page.')).toBeTruthy();
  });

  it('pages through the images and opens the list as a dialog on a phone', async () => {
    renderEditor({
      width: 375,
      placements: [{ emailAddress: ADA.emailAddress, pageNumber: 2, left: 0.1, top: 0.2 }],
    });
    const stage = await screen.findByTestId('stage');
    expect(stage.dataset.url).toBe('/p/1.png');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(screen.queryByRole('complementary')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Signatures (1)' }));
    const dialog = await findOpenDialog('Signatures');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show page 2' }));
    await waitFor(() => expect(screen.getByTestId('stage').dataset.url).toBe('/p/2.png'));
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getByTestId('stage').dataset.url).toBe('/p/1.png'));
  });
});
