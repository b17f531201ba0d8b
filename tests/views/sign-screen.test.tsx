import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sampleDocument } from '../samples';
import { sampleFlowSigning, sampleOwnSigning } from '../samples/signing';
import { SignRefusal } from '../../src/services/signing';
import { ApiError } from '../../src/api/errors';
import { renderSignScreen } from './sign-render';

describe('sign screen: the form', () => {
  it('shows the document, the cards with the first one chosen, and the default location', async () => {
    renderSignScreen();
    await screen.findByRole('heading', { name: 'Sign the document' });
    const block = (await screen.findByText('d1.pdf')).closest('dl');
    if (!block) throw new Error('the document block is missing');
    expect(block).toBeVisible();
    // Each term with the value beside it.
    expect(
      Array.from(block.querySelectorAll('dt'), (term) => [
        term.textContent,
        term.nextElementSibling?.textContent,
      ]),
    ).toEqual([
      ['File name', 'd1.pdf'],
      ['Uploaded', expect.stringContaining('Jan 1 2030, 09:00')],
      ['Size', '12 KB'],
      ['Owner', 'Ada Lovelace (you)'],
    ]);
    const first = screen.getByRole('radio', { name: /personal ID card Personal, level 2/ });
    expect((first as HTMLInputElement).checked).toBe(true);
    const other = screen.getByRole('radio', { name: /Business, level 4/ });
    expect((other as HTMLInputElement).checked).toBe(false);
    expect(other).toBeEnabled();
    expect((screen.getByRole('textbox', { name: /Location/ }) as HTMLInputElement).value).toBe('London');
  });

  it('says before signing that some pages could not be shown, on a phone as on a desktop', async () => {
    const document = sampleDocument('d1', {
      state: 'uploaded',
      currentUserCanSign: true,
      publicImagesFileUrls: ['http://localhost/s/d1/1.png', '/app/page-unavailable.svg'],
      unavailablePages: [2],
    });
    renderSignScreen({ data: sampleOwnSigning({ document }) });
    const notice = await screen.findByText('Some pages could not be shown.');
    // In the form itself, not in the page images beside it that a narrow screen leaves out.
    expect(notice.closest('form')).not.toBeNull();
  });

  it('says nothing of unavailable pages when every page rendered', async () => {
    renderSignScreen();
    await screen.findByRole('heading', { name: 'Sign the document' });
    expect(screen.queryByText('Some pages could not be shown.')).toBeNull();
  });

  it('cuts a long card description at 35 characters and keeps it whole in the title', async () => {
    renderSignScreen();
    const cut = await screen.findByText('Analytical Engines Ltd. qualified c…');
    expect(cut.closest('[title]')?.getAttribute('title')).toBe(
      'Analytical Engines Ltd. qualified company seal',
    );
  });

  it('names the owner when it is someone else', async () => {
    renderSignScreen({ data: sampleFlowSigning() });
    expect(await screen.findByText('Bob Builder')).toBeVisible();
    expect(screen.queryByText(/\(you\)/)).toBeNull();
  });

  it('says what is wrong with the location once the user tries to continue', async () => {
    const { user, signDocument } = renderSignScreen({ data: sampleFlowSigning(), defaultLocation: '' });
    const location = await screen.findByRole('textbox', { name: /Location/ });
    expect(screen.queryByText('A location must be filled in.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('A location must be filled in.')).toBeVisible();
    await user.type(location, 'M');
    expect(await screen.findByText('The location must be at least two characters long.')).toBeVisible();
    expect(signDocument).not.toHaveBeenCalled();
  });

  it('says a reason over 128 characters is too long, and does not send it', async () => {
    const { user, signDocument } = renderSignScreen({ data: sampleFlowSigning() });
    const reason = await screen.findByRole('textbox', { name: /Reason/ });
    await user.click(reason);
    await user.paste('r'.repeat(129));
    expect(await screen.findByText('The reason must be shorter than 128 characters.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(signDocument).not.toHaveBeenCalled();
  });

  it('asks the owner to place the signature before proceeding', async () => {
    const { user, signDocument } = renderSignScreen();
    await screen.findByRole('radio', { name: 'On a page, where I place it' });
    expect(screen.getByRole('link', { name: 'Place your signature' }).getAttribute('href')).toBe(
      '/sign/d1/signature',
    );
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please place your signature before proceeding.',
    );
    expect(signDocument).not.toHaveBeenCalled();
  });

  it('sends a signature page without a placement', async () => {
    const { user, signDocument } = renderSignScreen();
    await user.click(await screen.findByRole('radio', { name: 'On a signature page' }));
    await user.click(screen.getByRole('radio', { name: 'At the start' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(signDocument).toHaveBeenCalledWith({
      documentId: 'd1',
      body: { smart_card_id: 'card-1', location: 'London', sign_page_number: 1 },
    });
  });

  it('joins the server’s validation messages in the alert', async () => {
    const refusal = new SignRefusal(new ApiError({ code: 'sign_refused', status: 422 }), [
      'The plan is used up.',
      'Ask your administrator.',
    ]);
    const { user } = renderSignScreen({
      data: sampleFlowSigning(),
      sign: () => Promise.reject(refusal),
    });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The plan is used up. Ask your administrator.',
    );
  });

  it('says signing failed when the server gave no reason', async () => {
    const { user } = renderSignScreen({
      data: sampleFlowSigning(),
      sign: () => Promise.reject(new ApiError({ code: 'server', status: 500 })),
    });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An error has occurred while signing the document. Please try again.',
    );
  });

  it('fills the location from locate-me, and says when it cannot', async () => {
    let answer: () => Promise<string> = async () => 'Lyon';
    const { user } = renderSignScreen({ locate: () => answer() });
    await user.click(await screen.findByRole('button', { name: 'Locate me' }));
    expect((screen.getByRole('textbox', { name: /Location/ }) as HTMLInputElement).value).toBe('Lyon');
    answer = () => Promise.reject(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Locate me' }));
    expect(await screen.findByText('Your location could not be found. Please type it in.')).toBeVisible();
  });

  it("keeps the failed lookup's message on an empty field after Continue, and the empty one once typed and cleared", async () => {
    const { user } = renderSignScreen({
      data: sampleFlowSigning(),
      locate: () => Promise.reject(new Error('denied')),
    });
    const field = (await screen.findByRole('textbox', { name: /Location/ })) as HTMLInputElement;
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Locate me' }));
    expect(await screen.findByText('Your location could not be found. Please type it in.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Your location could not be found. Please type it in.')).toBeVisible();
    expect(screen.queryByText('A location must be filled in.')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });

  it('cancels to the document page', async () => {
    const { user, goToDocument } = renderSignScreen();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });
});

describe('sign screen: loading', () => {
  it('shows the heading and the wait while the document and the cards load', async () => {
    let finish: (data: ReturnType<typeof sampleOwnSigning>) => void = () => undefined;
    renderSignScreen({
      load: () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Sign the document' });
    expect(screen.getByRole('status').textContent).toBe('Loading the document and your smart cards…');
    finish(sampleOwnSigning());
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(screen.queryByText('Loading the document and your smart cards…')).toBeNull();
    // One heading, in the same place before and after.
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(heading.textContent).toBe('Sign the document');
  });

  it('says the document or the cards could not be loaded, and tries again', async () => {
    let attempts = 0;
    const { user } = renderSignScreen({
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new ApiError({ code: 'network', status: 0 });
        return sampleOwnSigning();
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The document or your smart cards could not be loaded.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('says so when there is no smart card', async () => {
    renderSignScreen({ data: sampleOwnSigning({ smartCards: [] }) });
    expect(await screen.findByText('You have no smart card to sign with.')).toBeVisible();
  });

  it('sends someone who cannot sign to the document page', async () => {
    const { goToDocument } = renderSignScreen({
      data: sampleOwnSigning({ document: sampleDocument('d1', { currentUserCanSign: false }) }),
    });
    await vi.waitFor(() => expect(goToDocument).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});

describe('sign screen: the assigned place in a sign flow', () => {
  it('offers the preview instead of a placement', async () => {
    renderSignScreen({ data: sampleFlowSigning() });
    const preview = await screen.findByRole('link', { name: 'Preview where you sign' });
    expect(preview.getAttribute('href')).toBe('/sign/d1/signature-preview');
    expect(screen.queryByRole('radio', { name: 'On a signature page' })).toBeNull();
  });

  it('shows the page with the box where the owner placed it', async () => {
    renderSignScreen({ data: sampleFlowSigning(), page: 'signature-preview' });
    const image = await screen.findByRole('img', { name: "Page 2 with your signature's place" });
    expect(image.getAttribute('src')).toBe('http://localhost/s/d1/2.png');
    const box = screen.getByTestId('signature-box');
    expect(box.style.left).toBe('50%');
    expect(box.style.top).toBe('70%');
    expect(box.style.width).toBe('28%');
    expect(screen.getByRole('button', { name: 'Back to the form' })).toBeEnabled();
  });
});
