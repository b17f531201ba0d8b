// jsdom has no canvas: the Konva stage is replaced by a stub with the same props, whose buttons stand in
// for a click on the page, a click on a box, a drag (whole, or its start and its drop apart) and the page
// image's shape. Everything else is the real page.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { sampleDocument } from '../samples';
import type { DraftSignatory, Placement } from '../../machines/sign-flow-draft';
import { signaturePlacementMachine } from '../../machines/signature-placement.machine';
import type { DocumentResource } from '../../machines/types';
import type { PlacementStageProps } from '../../src/canvas/placement-stage';
import { SignaturePlacementPage } from '../../src/views/signflow/placement/signature-placement-page';
import { findOpenDialog, isDisabled, renderView, waitForDialogsClosed } from './render';

const documents = {
  next: null as null | (() => Promise<DocumentResource>),
};

const logic = signaturePlacementMachine.provide({
  actors: {
    fetchDocument: fromPromise<DocumentResource, { documentId: string }>(() => {
      if (!documents.next) throw new Error('no document prepared');
      return documents.next();
    }),
  },
});

function StubStage(props: PlacementStageProps) {
  return (
    <div data-testid="stage" data-url={props.imageUrl}>
      <button type="button" onClick={() => props.onPageClick(0.5, 0.5)}>
        stub: click the page
      </button>
      {props.boxes.map((box) => (
        <span key={box.emailAddress}>
          <button type="button" onClick={() => props.onBoxClick(box.emailAddress)}>
            {`stub box ${box.number} ${box.name}${box.isSigned ? ' signed' : ''} at ${box.left},${box.top}` +
              (box.isOverlapping ? ' overlapping' : '')}
          </button>
          <button type="button" onClick={() => props.onDragStart(box.emailAddress)}>
            {`stub: pick up ${box.number}`}
          </button>
          <button type="button" onClick={() => props.onDrop(box.emailAddress, 0.25, 0.35)}>
            {`stub: put down ${box.number} at 0.25,0.35`}
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
      <button type="button" onClick={() => props.onPageMeasured(1)}>
        stub: the page is square
      </button>
    </div>
  );
}

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

// The page measures its width; jsdom lays nothing out. The window is given back as it was, for the files
// that share this one's worker.
const clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
const startWidth = window.innerWidth;
const startMatchMedia = window.matchMedia;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
});
afterAll(() => {
  if (clientWidth) Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
  else Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
});

afterEach(() => {
  documents.next = null;
  window.innerWidth = startWidth;
  window.matchMedia = startMatchMedia;
});

/** The boxes the stage draws, each as its stub button says: number, signatory and place. */
function boxesOnStage(): (string | null)[] {
  return screen.queryAllByRole('button', { name: /^stub box / }).map((box) => box.textContent);
}

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
      logic={logic}
      Stage={StubStage}
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
    expect(await screen.findByText(/have not been generated yet/)).toBeVisible();
    documents.next = async () => TWO_PAGES;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('stage')).dataset.url).toBe('/p/1.png');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('shows the image error when a page image fails to load', async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole('button', { name: 'stub: image fails' }));
    expect(await screen.findByText('The page images could not be loaded.')).toBeVisible();
  });

  it('lists only unsigned signatories in the add dialog and lists the placed signature', async () => {
    const carolBox = { emailAddress: CAROL.emailAddress, pageNumber: 2, left: 0.5, top: 0.5 };
    const { onSave } = renderEditor({ placements: [carolBox] });
    const list = await screen.findByRole('list', { name: 'Signatures' });
    const carol = within(list).getByText('Carol Shaw');
    expect(carol).toBeVisible();
    expect(carol.closest('li')?.textContent).toContain('Signed: cannot be changed');
    expect(within(list).queryByRole('button', { name: /Remove the signature/ })).toBeNull();

    // The canvas is lazy: it may come after the list.
    await userEvent.click(await screen.findByRole('button', { name: 'stub: click the page' }));
    const dialog = await findOpenDialog('Add a signature');
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    expect(within(dialog).queryByText(/Carol Shaw/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitForDialogsClosed();
    expect(within(list).getByText('Ada Lovelace')).toBeVisible();
    expect(within(list).getByRole('button', { name: 'Remove the signature of Ada Lovelace' })).toBeEnabled();

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
    await waitForDialogsClosed();
    // Ada's box is Bob's now, where it was.
    expect(boxesOnStage()).toEqual(['stub box 2 Bob Builder at 0.1,0.2']);

    await userEvent.click(screen.getByRole('button', { name: 'stub: drag 2' }));
    await waitFor(() => expect(boxesOnStage()).toEqual(['stub box 2 Bob Builder at 0.72,0.85']));

    await userEvent.click(screen.getByRole('button', { name: /stub box 2 Bob Builder/ }));
    dialog = await findOpenDialog('Edit the signature');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitForDialogsClosed();
    expect(boxesOnStage()).toEqual([]);
    expect(screen.getByText(/No signature is placed yet/)).toBeVisible();
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
    expect(boxesOnStage()).toEqual(['stub box 2 Bob Builder at 0.37,0.475']);
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
    expect(screen.getByText('No signature on this page.')).toBeVisible();
  });

  it('pages through the images and opens the list as a dialog on a phone', async () => {
    renderEditor({
      width: 375,
      placements: [{ emailAddress: ADA.emailAddress, pageNumber: 2, left: 0.1, top: 0.2 }],
    });
    const stage = await screen.findByTestId('stage');
    expect(stage.dataset.url).toBe('/p/1.png');
    expect(screen.getByText('Page 1 of 2')).toBeVisible();
    expect(screen.queryByRole('complementary')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Signatures (1)' }));
    const dialog = await findOpenDialog('Signatures');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show page 2' }));
    // The list closes on the page it showed, and the page is readable again.
    await waitForDialogsClosed();
    expect(screen.getByTestId('stage').dataset.url).toBe('/p/2.png');
    expect(screen.getByText('Page 2 of 2')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getByTestId('stage').dataset.url).toBe('/p/1.png'));
  });
});

describe('SignaturePlacementPage: overlapping signatures', () => {
  const adaBox = { emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.1, top: 0.3 };

  it('marks both boxes, names them with their page, and saves only once one has moved off', async () => {
    const { onSave } = renderEditor({
      placements: [adaBox, { emailAddress: BOB.emailAddress, pageNumber: 1, left: 0.6, top: 0.7 }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'stub: pick up 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'stub: put down 2 at 0.25,0.35' }));

    // Nothing is undone: Bob's box stays where it was dropped, and both are marked.
    await screen.findByRole('button', { name: /stub box 2 Bob Builder at 0.25,0.35/ });
    expect(boxesOnStage()).toEqual([
      'stub box 1 Ada Lovelace at 0.1,0.3 overlapping',
      'stub box 2 Bob Builder at 0.25,0.35 overlapping',
    ]);
    const list = screen.getByRole('list', { name: 'Signatures' });
    expect(
      within(list)
        .getAllByText(/^Overlaps/)
        .map((mark) => mark.textContent),
    ).toEqual(['Overlaps Bob Builder', 'Overlaps Ada Lovelace']);

    // Save says why it does nothing: the message naming both, with their page.
    const save = screen.getByRole('button', { name: 'Save the signatures' });
    expect(isDisabled(save)).toBe(true);
    const message = document.getElementById(save.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe(
      'Some signatures overlap. Move one of each pair to save.' +
        'Page 1: the signatures of Ada Lovelace and Bob Builder overlap.',
    );
    await userEvent.click(save);
    expect(onSave).not.toHaveBeenCalled();

    // Three Shift+Right steps take Bob's box clear of Ada's (its left edge at 0.40, hers ends at 0.38).
    await userEvent.click(screen.getByRole('button', { name: 'Move the signature 2: Bob Builder' }));
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    await screen.findByRole('button', { name: /stub box 2 Bob Builder at 0.4,0.35/ });
    expect(boxesOnStage()).toEqual([
      'stub box 1 Ada Lovelace at 0.1,0.3',
      'stub box 2 Bob Builder at 0.4,0.35',
    ]);
    expect(screen.queryByText(/the signatures of .* overlap/)).toBeNull();
    expect(within(list).queryByText(/^Overlaps/)).toBeNull();
    expect(isDisabled(save)).toBe(false);
    expect(save.hasAttribute('aria-describedby')).toBe(false);
    await userEvent.click(save);
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]?.[0]).toEqual([
      adaBox,
      { emailAddress: BOB.emailAddress, pageNumber: 1, left: 0.4, top: 0.35 },
    ]);
  });

  it('judges the boxes by the page’s shape once its image has loaded', async () => {
    renderEditor({
      placements: [adaBox, { emailAddress: BOB.emailAddress, pageNumber: 1, left: 0.1, top: 0.42 }],
    });
    // On an A4 page a box is 10.6 % of the height: 0.30 and 0.42 are apart; on a square page, 15 %.
    const square = await screen.findByRole('button', { name: 'stub: the page is square' });
    expect(screen.queryByText(/the signatures of .* overlap/)).toBeNull();
    await userEvent.click(square);
    await screen.findByText('Page 1: the signatures of Ada Lovelace and Bob Builder overlap.');
    expect(boxesOnStage()).toEqual([
      'stub box 1 Ada Lovelace at 0.1,0.3 overlapping',
      'stub box 2 Bob Builder at 0.1,0.42 overlapping',
    ]);
  });
});

describe('SignaturePlacementPage: a page taller than the window', () => {
  for (const width of [375, 800, 1280]) {
    it(`keeps the toolbar and the pager stuck to the scrolling area at ${width} px, letting go during a drag`, async () => {
      renderEditor({
        width,
        placements: [{ emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.1, top: 0.3 }],
      });
      await screen.findByTestId('stage');
      const toolbar = screen.getByRole('button', { name: 'Save the signatures' }).parentElement;
      const pager = screen.getByRole('button', { name: 'Next page' }).closest('[data-placement-bar]');
      if (!toolbar || !(pager instanceof HTMLElement)) throw new Error('no toolbar or pager');
      const stuck = (element: HTMLElement) => {
        const style = getComputedStyle(element);
        return { position: style.position, top: style.top, bottom: style.bottom };
      };
      expect(stuck(toolbar)).toMatchObject({
        position: 'sticky',
        top: expect.stringMatching(/^calc\(-1 \*/),
      });
      expect(stuck(pager)).toMatchObject({
        position: 'sticky',
        bottom: expect.stringMatching(/^calc\(-1 \*/),
      });
      // Opaque and above the canvas, so the page scrolls under them rather than through them.
      expect(getComputedStyle(toolbar).backgroundColor).not.toBe('');
      expect(Number(getComputedStyle(toolbar).zIndex)).toBeGreaterThan(0);

      await userEvent.click(screen.getByRole('button', { name: 'stub: pick up 1' }));
      await waitFor(() => expect(stuck(toolbar).position).toBe('static'));
      expect(stuck(pager).position).toBe('static');
      await userEvent.click(screen.getByRole('button', { name: 'stub: put down 1 at 0.25,0.35' }));
      await waitFor(() => expect(stuck(toolbar).position).toBe('sticky'));
      expect(stuck(pager).position).toBe('sticky');
    });
  }
});
