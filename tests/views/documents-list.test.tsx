import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleDocument, samplePage } from '../samples';
import type { DocumentPage, FetchPageInput } from '../../machines/types';
import { ApiError } from '../../src/api/errors';
import { DocumentList, type DocumentListProps } from '../../src/views/documents/document-list';
import { useSearch } from 'wouter';
import { currentHref, isDisabled, navigateTo, renderView } from './render';

const OWN = sampleDocument('d-own', { originalFilename: 'Lease agreement.pdf', isOwner: true });
const WAITING = sampleDocument('d-waiting', {
  originalFilename: 'Supplier contract.pdf',
  isOwner: false,
  creatorFullName: 'Bob Builder',
  creatorEmailAddress: 'bob@paraph.test',
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserCanSign: true,
  signedCount: 1,
  signatoryCount: 3,
});
const LONG = sampleDocument('d-long', {
  originalFilename: `${'a'.repeat(120)}.pdf`,
  isOwner: false,
  creatorFullName: null,
});

function listWith(fetch: (input: FetchPageInput) => Promise<DocumentPage>) {
  const fetchPage = vi.fn(fetch);
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise<DocumentPage, FetchPageInput>(({ input }) => fetchPage(input)) },
  });
  return { logic, fetchPage };
}

const FIRST_OF_TWO = samplePage([OWN, WAITING, LONG], 1, 2);

function rowOf(name: string): HTMLElement {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('documents list', () => {
  it('shows each document with its status, owner and page position', async () => {
    const { logic } = listWith(async () => FIRST_OF_TWO);
    renderView(<DocumentList logic={logic} category="active" />);

    const grid = await screen.findByRole('grid', { name: 'Documents' });
    expect(within(grid).getAllByRole('row')).toHaveLength(4);
    expect(within(rowOf('Lease agreement.pdf')).getByText('Ada Lovelace (you)')).toBeVisible();
    const waiting = rowOf('Supplier contract.pdf');
    expect(within(waiting).getByText('Bob Builder')).toBeVisible();
    expect(within(waiting).getByText('Waiting for you (1/3 signed)')).toBeVisible();
    expect(within(rowOf('Lease agreement.pdf')).getByText('Uploaded')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'All documents' })).toBeVisible();
    expect(document.title).toBe('All documents · Paraph');
  });

  it('breaks a date only after its comma: the date on one line, the time on the next', async () => {
    const dated = {
      ...OWN,
      attributes: {
        ...OWN.attributes,
        createdAt: '2026-11-21T19:37:00Z',
        autodeletionAt: '2027-11-21T19:37:00Z',
      },
    };
    const page = samplePage([dated], 1, 1);
    const { logic } = listWith(async () => ({ ...page, meta: { ...page.meta, showAutodeleteDate: true } }));
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid', { name: 'Documents' });
    const row = rowOf('Lease agreement.pdf');
    const dates = [...row.querySelectorAll('td')].filter((cell) =>
      /\d{4}, \d{2}:\d{2}$/.test(cell.textContent ?? ''),
    );
    expect(dates).toHaveLength(2);
    for (const cell of dates) {
      const [date, time] = [...cell.querySelectorAll('span')];
      expect(date?.textContent).toMatch(/^[A-Z][a-z]{2} \d{1,2} \d{4},$/);
      expect(time?.textContent).toMatch(/^\d{2}:\d{2}$/);
      for (const part of [date, time]) expect(getComputedStyle(part as Element).whiteSpace).toBe('nowrap');
    }
  });

  it('moves the uploaded date and the owner under the name on tablets (768-959 px)', async () => {
    const width = window.innerWidth;
    window.innerWidth = 800;
    try {
      const { logic } = listWith(async () => FIRST_OF_TWO);
      renderView(<DocumentList logic={logic} category="active" />);
      const grid = await screen.findByRole('grid', { name: 'Documents' });
      const headers = within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent);
      expect(headers).toContain('Status');
      expect(headers).not.toContain('Owner');
      expect(headers).not.toContain('Uploaded');
      const nameCell = screen.getByText('Supplier contract.pdf').closest('td');
      expect(nameCell?.textContent).toMatch(
        /^Supplier contract\.pdf[A-Z][a-z]{2} \d{1,2} \d{4}, \d{2}:\d{2} · Bob Builder$/,
      );
      expect(screen.queryByRole('checkbox', { name: /select all/i })).toBeNull();
    } finally {
      window.innerWidth = width;
    }
  });

  it('gives the owner its own column from 1440 px, and puts it under the name on narrower desktops', async () => {
    const width = window.innerWidth;
    const headersAt = async (innerWidth: number) => {
      window.innerWidth = innerWidth;
      const { logic } = listWith(async () => FIRST_OF_TWO);
      const view = renderView(<DocumentList logic={logic} category="active" />);
      const grid = await screen.findByRole('grid', { name: 'Documents' });
      const headers = within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent);
      const nameCell = screen.getByText('Supplier contract.pdf').closest('td')?.textContent;
      view.unmount();
      return { headers, nameCell };
    };
    try {
      const desktop = await headersAt(1280);
      expect(desktop.headers).toEqual(['Name', 'Status', 'Uploaded', '']);
      expect(desktop.nameCell).toBe('Supplier contract.pdfBob Builder');
      const wide = await headersAt(1440);
      expect(wide.headers).toEqual(['Name', 'Status', 'Uploaded', 'Owner', '']);
      expect(wide.nameCell).toBe('Supplier contract.pdf');
    } finally {
      window.innerWidth = width;
    }
  });

  it('cuts names over 100 characters and keeps the full name in the title', async () => {
    const { logic } = listWith(async () => FIRST_OF_TWO);
    renderView(<DocumentList logic={logic} category="active" />);

    const shown = await screen.findByText(`${'a'.repeat(100)}…`);
    expect(shown.getAttribute('title')).toBe(LONG.attributes.originalFilename);
    // No full name: the e-mail address stands for the owner.
    expect(within(rowOf(`${'a'.repeat(100)}…`)).getByText('ada@paraph.test')).toBeVisible();
  });

  it('disables first and previous on page 1 of 2, and moves to the next page', async () => {
    const { logic, fetchPage } = listWith(async (input) =>
      input.url?.includes('page=2') ? samplePage([WAITING], 2, 2) : FIRST_OF_TWO,
    );
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);

    expect(await screen.findByText('Page 1 of 2')).toBeVisible();
    const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
    expect(isDisabled(button('First page'))).toBe(true);
    expect(isDisabled(button('Previous page'))).toBe(true);
    expect(isDisabled(button('Next page'))).toBe(false);
    expect(isDisabled(button('Last page'))).toBe(false);

    await user.click(button('Next page'));

    expect(await screen.findByText('Page 2 of 2')).toBeVisible();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ url: FIRST_OF_TWO.links.next }));
    expect(isDisabled(button('Next page'))).toBe(true);
    expect(isDisabled(button('Last page'))).toBe(true);
    expect(isDisabled(button('First page'))).toBe(false);
  });

  it('says the documents could not be loaded when the first load fails', async () => {
    const { logic } = listWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    renderView(<DocumentList logic={logic} category="active" />);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Documents could not be loaded')).toBeVisible();
    expect(within(alert).getByText('Try refreshing the page.')).toBeVisible();
    expect(screen.queryByText('An error occured during searching')).toBeNull();
  });

  it('says an error occured during searching when a search fails, and sends the trimmed term', async () => {
    const { logic, fetchPage } = listWith(async (input) => {
      if (input.search) throw new ApiError({ code: 'server', status: 500 });
      return FIRST_OF_TWO;
    });
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');

    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), '  lease  ');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('An error occured during searching')).toBeVisible();
    expect(within(alert).queryByText('Documents could not be loaded')).toBeNull();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'lease' }));
  });

  it('selects one row on a plain click and toggles more with Ctrl-click', async () => {
    const { logic } = listWith(async () => FIRST_OF_TWO);
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    const selected = () =>
      screen
        .getAllByRole('row')
        .filter((row) => row.getAttribute('aria-selected') === 'true')
        .map((row) => row.textContent);

    await user.click(screen.getByText('Lease agreement.pdf'));
    expect(selected()).toHaveLength(1);
    expect(rowOf('Lease agreement.pdf').getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Control>}');
    await user.click(screen.getByText('Supplier contract.pdf'));
    await user.keyboard('{/Control}');
    expect(selected()).toHaveLength(2);
    // The selection bar and the details panel beside the list both say it.
    expect(await screen.findByText('2 documents selected')).toBeVisible();

    await user.click(screen.getByText('Supplier contract.pdf'));
    expect(selected()).toHaveLength(1);
    expect(rowOf('Supplier contract.pdf').getAttribute('aria-selected')).toBe('true');
    expect(rowOf('Lease agreement.pdf').getAttribute('aria-selected')).toBe('false');
  });

  it('selects every row with select-all and a row with its checkbox', async () => {
    const { logic } = listWith(async () => FIRST_OF_TWO);
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');

    await user.click(screen.getByRole('checkbox', { name: 'Select Supplier contract.pdf' }));
    expect(rowOf('Supplier contract.pdf').getAttribute('aria-selected')).toBe('true');

    await user.click(screen.getByRole('checkbox', { name: 'Select all documents on this page' }));
    expect(await screen.findByText('3 documents selected')).toBeVisible();
  });

  it('shows the empty text of a search that found nothing', async () => {
    const { logic } = listWith(async (input) => (input.search ? samplePage([], 1, 1) : FIRST_OF_TWO));
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');

    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'nothing{Enter}');

    expect(await screen.findByText('No documents match “nothing”.')).toBeVisible();
  });

  describe('its address', () => {
    // As the app's route does: the list gets the address's query.
    function Routed({ logic }: Pick<DocumentListProps, 'logic'>) {
      return <DocumentList logic={logic} category="active" query={useSearch()} />;
    }
    const isSelected = (name: string) => rowOf(name).getAttribute('aria-selected') === 'true';

    it('opens at the page and selection it holds, so back and reload come to the same list', async () => {
      const { logic, fetchPage } = listWith(async () => samplePage([OWN, WAITING], 2, 2));
      renderView(<Routed logic={logic} />, { search: 'page=2&selected=d-waiting' });

      await screen.findByText('Page 2 of 2');
      expect(fetchPage).toHaveBeenCalledTimes(1);
      expect(fetchPage).toHaveBeenCalledWith(expect.objectContaining({ page: 2, url: null }));
      expect(isSelected('Supplier contract.pdf')).toBe(true);
      expect(isSelected('Lease agreement.pdf')).toBe(false);
      expect(currentHref()).toBe('/documents?page=2&selected=d-waiting');
    });

    it('says the selection and the search in the address as the person goes', async () => {
      const { logic, fetchPage } = listWith(async (input) =>
        input.search === 'lease' ? samplePage([OWN], 1, 1) : FIRST_OF_TWO,
      );
      const user = userEvent.setup();
      renderView(<Routed logic={logic} />);
      await screen.findByText('Page 1 of 2');
      expect(currentHref()).toBe('/documents');

      await user.click(within(rowOf('Lease agreement.pdf')).getByRole('checkbox'));
      expect(currentHref()).toBe('/documents?selected=d-own');

      await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'lease');
      await user.click(screen.getByRole('button', { name: /^Search$/ }));
      await screen.findByText('Page 1 of 1');
      expect(currentHref()).toBe('/documents?search=lease&selected=d-own');
      expect(fetchPage).toHaveBeenCalledTimes(2);
    });

    it('goes where a new address says (an upload showing its document), once', async () => {
      const { logic, fetchPage } = listWith(async () => FIRST_OF_TWO);
      renderView(<Routed logic={logic} />);
      await screen.findByText('Page 1 of 2');
      expect(fetchPage).toHaveBeenCalledTimes(1);

      navigateTo('/documents?selected=d-waiting');
      await vi.waitFor(() => expect(isSelected('Supplier contract.pdf')).toBe(true));
      expect(fetchPage).toHaveBeenCalledTimes(2);
      expect(currentHref()).toBe('/documents?selected=d-waiting');
    });
  });
});
