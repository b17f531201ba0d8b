import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { auditTrailDownloadMachine } from '../../machines/audit-trail-download.machine';
import { documentDetailsMachine } from '../../machines/document-details.machine';
import { sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { ApiError } from '../../src/api/errors';
import { saveFile } from '../../src/services/audit-trail';
import { AuditTrailButton } from '../../src/views/documents/audit-trail-button';
import { DetailsPanel } from '../../src/views/documents/details-panel';
import { isDisabled, renderView } from './render';

function downloadWith(fetch: (documentId: string) => Promise<Blob>) {
  const fetchAuditTrail = vi.fn(fetch);
  const saveFile = vi.fn();
  const logic = auditTrailDownloadMachine.provide({
    actors: {
      fetchAuditTrail: fromPromise<Blob, { documentId: string }>(({ input }) =>
        fetchAuditTrail(input.documentId),
      ),
    },
    actions: { saveFile: (_, params) => saveFile(params.blob, params.fileName) },
  });
  return { logic, fetchAuditTrail, saveFile };
}

describe('audit trail button', () => {
  it('downloads the trail of the document under its audit trail name', async () => {
    const user = userEvent.setup();
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const { logic, fetchAuditTrail, saveFile } = downloadWith(async () => pdf);
    renderView(<AuditTrailButton logic={logic} documentId="d1" originalFilename="Contract.pdf" />);
    await user.click(screen.getByRole('button', { name: 'Download audit trail' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(pdf, 'Contract - audit trail.pdf'));
    expect(fetchAuditTrail).toHaveBeenCalledWith('d1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is busy while the trail is fetched', async () => {
    const user = userEvent.setup();
    let finish: (blob: Blob) => void = () => {};
    const { logic } = downloadWith(
      () =>
        new Promise<Blob>((resolve) => {
          finish = resolve;
        }),
    );
    renderView(<AuditTrailButton logic={logic} documentId="d1" originalFilename="Contract.pdf" />);
    await user.click(screen.getByRole('button', { name: 'Download audit trail' }));
    const busy = await screen.findByRole('button', { name: 'Preparing the audit trail…' });
    expect(isDisabled(busy)).toBe(true);
    finish(new Blob([]));
    expect(await screen.findByRole('button', { name: 'Download audit trail' })).toBeEnabled();
  });

  it('says when the download failed, until dismissed', async () => {
    const user = userEvent.setup();
    const { logic, saveFile } = downloadWith(async () => {
      throw new ApiError({ code: 'network', status: 0 });
    });
    renderView(<AuditTrailButton logic={logic} documentId="d1" originalFilename="Contract.pdf" />);
    await user.click(screen.getByRole('button', { name: 'Download audit trail' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The audit trail could not be downloaded. Please try again.');
    expect(saveFile).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is offered in the details of any document the user sees', async () => {
    const participantOf = sampleDocument('d1', { isOwner: false, creatorFullName: 'Bob Builder' });
    const logic = documentDetailsMachine.provide({
      actors: {
        fetchDocument: fromPromise<DocumentResource, { documentId: string }>(async () => participantOf),
      },
    });
    renderView(<DetailsPanel logic={logic} selectedIds={['d1']} />);
    const panel = await screen.findByRole('complementary', { name: 'Document details' });
    expect(await within(panel).findByRole('button', { name: 'Download audit trail' })).toBeEnabled();
  });
});

describe('saving the audit trail', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('clicks a download link to an object URL, removes the link, then revokes the URL', () => {
    vi.useFakeTimers();
    const created = vi.fn(() => 'blob:http://paraph.test/1');
    const revoked = vi.fn();
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: revoked });
    const clicks: { href: string; download: string; isAttached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download, isAttached: document.body.contains(this) });
    });
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });

    saveFile(pdf, 'Contract - audit trail.pdf');
    expect(created).toHaveBeenCalledWith(pdf);
    expect(clicks).toEqual([
      { href: 'blob:http://paraph.test/1', download: 'Contract - audit trail.pdf', isAttached: true },
    ]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoked).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoked).toHaveBeenCalledWith('blob:http://paraph.test/1');
  });
});
