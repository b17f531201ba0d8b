// The verification page: a file is chosen, checked (the call is a fake here) and its report shown in
// plain words, verdict first; errors offer "try again" or another file as the machine allows.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { SelectedFile } from '../../machines/types';
import { verificationMachine, type VerificationReport } from '../../machines/verification.machine';
import { sampleVerificationReport, sampleVerificationSignature } from '../samples/verification';
import { VerifyPage } from '../../src/views/verify/verify-page';
import { renderView } from './render';

const pdf = (name = 'contract.pdf') => new File(['%PDF-1.7\n'], name, { type: 'application/pdf' });

type Call = {
  file: SelectedFile;
  resolve: (report: VerificationReport) => void;
  reject: (error: unknown) => void;
};

function renderVerify() {
  const calls: Call[] = [];
  const verify = vi.fn(
    (file: SelectedFile) =>
      new Promise<VerificationReport>((resolve, reject) => calls.push({ file, resolve, reject })),
  );
  const logic = verificationMachine.provide({
    actors: { verifyPdf: fromPromise<VerificationReport, SelectedFile>(({ input }) => verify(input)) },
  });
  renderView(<VerifyPage logic={logic} />, { path: '/verify' });
  const call = (index: number): Call => {
    const found = calls[index];
    if (found === undefined) throw new Error(`no call ${index + 1}`);
    return found;
  };
  return { verify, call, user: userEvent.setup() };
}

async function choose(user: ReturnType<typeof userEvent.setup>, file: File): Promise<void> {
  await user.upload(screen.getByLabelText('Choose a PDF'), file);
}

async function reportShown(report: VerificationReport) {
  const page = renderVerify();
  await choose(page.user, pdf());
  page.call(0).resolve(report);
  await screen.findByRole('heading', { level: 2 });
  return page;
}

describe('the verification page', () => {
  it('checks a chosen PDF and shows its report, each signature with its verdict first', async () => {
    const { user, call, verify } = renderVerify();
    expect(document.title).toBe('Verify a signed PDF · Paraph');
    await choose(user, pdf());
    expect(screen.getByRole('status').textContent).toContain('Checking the signatures of contract.pdf…');
    expect(verify).toHaveBeenCalledTimes(1);
    expect(call(0).file.name).toBe('contract.pdf');
    call(0).resolve(sampleVerificationReport());

    await screen.findByRole('heading', { level: 2, name: 'All signatures are valid' });
    screen.getByText('File: contract.pdf');
    screen.getByText('Signature level: PAdES B-B');
    const card = screen.getByRole('article', { name: 'Signature 1: Ada Lovelace' });
    // The verdict comes before everything else in the card.
    expect(card.textContent?.startsWith('Valid')).toBe(true);
    const details = within(card);
    details.getByText('ada@paraph.test');
    // The signer's certificate, and the first link of its chain.
    expect(details.getAllByText('CN=Ada Lovelace, E=ada@paraph.test')).toHaveLength(2);
    details.getByText('The signed content is unchanged (SHA-256).');
    details.getByText('The whole file (37,200 bytes).');
    details.getByText('Byte range: [0 3804 36574 626]');
    details.getByText('Not checked.');
    details.getByText('Trusted by this service');
    details.getByText('The chain ends at a certificate this service trusts.');
    details.getByText(
      'Whether a certificate was revoked could not be checked: the document carries no revocation information for it.',
    );

    await user.click(screen.getByRole('button', { name: 'Verify another PDF' }));
    screen.getByLabelText('Choose a PDF');
    expect(screen.queryByRole('article')).toBeNull();
  });

  it.each([
    [
      'untrusted',
      'Signed, but not with this service’s certificates',
      'Not from this service',
      'The certificate does not come from this service’s list of trusted certificates.',
    ],
    [
      'changed',
      'The document was changed after it was signed',
      'Changed after signing',
      'The document was changed after this signature in a way a signature does not allow.',
    ],
    [
      'invalid',
      'At least one signature is not valid',
      'Not valid',
      'The signed content was altered after it was signed.',
    ],
  ] as const)('says in words what a %s signature means', async (verdict, headline, badge, problem) => {
    const problems = {
      untrusted: ['not_trusted'],
      changed: ['changed_after'],
      invalid: ['digest_mismatch'],
    } as const;
    const signature = sampleVerificationSignature({
      verdict,
      problems: [...problems[verdict]],
      ...(verdict === 'changed'
        ? { changesAfter: { isChanged: true, onlyAllowed: false, kinds: ['other'] } }
        : {}),
      ...(verdict === 'invalid'
        ? {
            integrity: {
              isIntact: false,
              signatureVerifies: true,
              digestMatches: false,
              digestAlgorithm: 'SHA-256',
            },
          }
        : {}),
    });
    await reportShown(sampleVerificationReport({ verdict, signatures: [signature] }));
    screen.getByRole('heading', { level: 2, name: headline });
    const card = within(screen.getByRole('article', { name: 'Signature 1: Ada Lovelace' }));
    card.getByText(badge);
    card.getByText(problem);
    if (verdict === 'changed') {
      card.getByText('The content or other parts of the document were changed.');
    }
    if (verdict === 'invalid') {
      card.getByText('The signed content does not match the signature.');
    }
  });

  it('shows a time-stamped signature, its revocation, and a document time-stamp', async () => {
    const signature = sampleVerificationSignature({
      problems: [],
      timeStamp: {
        time: '2030-01-02T09:30:05.000Z',
        authority: 'CN=Paraph TSA',
        isValid: true,
        imprintMatches: true,
        isTrusted: true,
      },
      changesAfter: { isChanged: true, onlyAllowed: true, kinds: ['document_time_stamp', 'dss'] },
    });
    const [signer, root] = signature.chain.certificates;
    if (signer === undefined || root === undefined) throw new Error('the sample has a chain');
    signature.chain.certificates = [
      {
        ...signer,
        revocation: {
          status: 'revoked',
          kind: 'ocsp',
          source: 'dss',
          checkedAt: '2030-01-03T00:00:00.000Z',
          revokedAt: '2030-01-02T12:00:00.000Z',
          reason: 'keyCompromise',
        },
      },
      root,
    ];
    const stamp = sampleVerificationSignature({
      index: 2,
      kind: 'document_time_stamp',
      problems: [],
      signer: { name: 'Paraph TSA', email: null, certificateSubject: 'CN=Paraph TSA', nameInDocument: null },
      reason: null,
      location: null,
    });
    await reportShown(
      sampleVerificationReport({
        level: 'B-LTA',
        hasDss: true,
        lastRevisionIsDocumentTimeStamp: true,
        signatures: [signature, stamp],
      }),
    );
    screen.getByText('Signature level: PAdES B-LTA');
    screen.getByText('The document is sealed by a document time-stamp.');
    const card = within(screen.getByRole('article', { name: 'Signature 1: Ada Lovelace' }));
    card.getByText('By CN=Paraph TSA');
    card.getByText('Valid, from a trusted authority');
    card.getByText('Only later signatures, time-stamps or validation data, which do not change the content.');
    card.getByText(/^Revoked on .+: the key was compromised \(OCSP in the document\)\.$/);
    const stampCard = within(screen.getByRole('article', { name: 'Document time-stamp 2' }));
    stampCard.getByText('Time-stamp authority');
    stampCard.getByText('Paraph TSA');
  });

  it('shows names from certificates and the PDF as text, never as markup', async () => {
    const markup = '<img src=x onerror="alert(1)">';
    const signature = sampleVerificationSignature({
      signer: { name: markup, email: null, certificateSubject: `CN=${markup}`, nameInDocument: markup },
      reason: '<b>approved</b>',
    });
    await reportShown(sampleVerificationReport({ signatures: [signature] }));
    expect(document.querySelector('img, b')).toBeNull();
    screen.getByRole('article', { name: `Signature 1: ${markup}` });
    screen.getByText('<b>approved</b>');
  });

  it('says when a PDF has no signatures', async () => {
    await reportShown(sampleVerificationReport({ verdict: 'no_signatures', level: null, signatures: [] }));
    screen.getByRole('heading', { level: 2, name: 'This PDF has no signatures' });
    screen.getByText('No signature or time-stamp was found in contract.pdf.');
    expect(screen.queryByRole('list', { name: 'Signatures' })).toBeNull();
  });

  it('tries the same file again after a lost connection', async () => {
    const { user, call, verify } = renderVerify();
    await choose(user, pdf());
    call(0).reject({ code: 'network' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The connection was lost. Check your network and try again.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(call(1).file.name).toBe('contract.pdf');
    call(1).resolve(sampleVerificationReport());
    await screen.findByRole('heading', { level: 2, name: 'All signatures are valid' });
  });

  it('offers only another file when the server refused the file itself', async () => {
    const { user, call, verify } = renderVerify();
    await choose(user, pdf('scan.pdf'));
    call(0).reject({ code: 'not_a_pdf', status: 422 });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'scan.pdf is not a valid PDF, or it is damaged.',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Choose another file' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await choose(user, pdf('signed.pdf'));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(call(1).file.name).toBe('signed.pdf');
  });

  it('refuses a file that is not a PDF before sending anything', async () => {
    const { verify } = renderVerify();
    const input = screen.getByLabelText('Choose a PDF');
    // The picker offers PDFs only; a file dropped or forced through still gets a clear refusal.
    await userEvent
      .setup({ applyAccept: false })
      .upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'notes.txt is not a PDF file. Choose a PDF.',
    );
    expect(verify).not.toHaveBeenCalled();
    screen.getByLabelText('Choose a PDF');
  });
});
