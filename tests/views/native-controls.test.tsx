// The list's search box, selection checkboxes and table, and the first screen's text, as the browser's own
// elements in Fluent's look (src/views/native-*.tsx, text.tsx): they keep Fluent's markup and classes, and
// what a keyboard or a screen reader meets is the native control, named and described as before.
import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FieldFrame } from '../../src/views/field-frame';
import { NativeCheckbox } from '../../src/views/native-checkbox';
import { NativeInput } from '../../src/views/native-input';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '../../src/views/native-table';
import { Caption1, Text, Title2 } from '../../src/views/text';
import { renderView } from './render';

function Search({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <FieldFrame label="Search documents" warning={value === '!' ? 'Not a search' : null}>
      {(control) => (
        <NativeInput
          {...control}
          role="searchbox"
          value={value}
          placeholder="Name or e-mail"
          onChange={(next) => {
            setValue(next);
            onChange(next);
          }}
          contentAfter={value ? <button type="button">Clear</button> : undefined}
        />
      )}
    </FieldFrame>
  );
}

describe('NativeInput', () => {
  it('is named by its field, hands each value over and shows what comes after the text inside its frame', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderView(<Search onChange={onChange} />);
    const box = screen.getByRole('searchbox', { name: 'Search documents' });
    expect(box?.getAttribute('placeholder')).toBe('Name or e-mail');
    expect(box.closest('.fui-Input')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();

    await user.type(box, 'ab');
    expect(onChange).toHaveBeenLastCalledWith('ab');
    expect((box as HTMLInputElement).value).toBe('ab');
    const clear = screen.getByRole('button', { name: 'Clear' });
    expect(clear.closest('.fui-Input__contentAfter')?.parentElement).toBe(box.closest('.fui-Input'));
  });

  it("is described by its field's warning, which is announced", async () => {
    const user = userEvent.setup();
    renderView(<Search onChange={() => undefined} />);
    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), '!');
    expect(screen.getByRole('alert')?.textContent).toBe('Not a search');
    const box = screen.getByRole('searchbox', { name: 'Search documents' });
    expect(screen.getByRole('searchbox', { description: 'Not a search' })).toBe(box);
  });
});

describe('NativeCheckbox', () => {
  it('is a native checkbox with its name, checked or not, with the tick drawn beside it', () => {
    const { rerender } = renderView(<NativeCheckbox checked={false} aria-label="Select Lease.pdf" />);
    const box = screen.getByRole('checkbox', { name: 'Select Lease.pdf' });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(box.closest('.fui-Checkbox')?.querySelector('.fui-Checkbox__indicator svg')).toBeNull();

    rerender(<NativeCheckbox checked aria-label="Select Lease.pdf" />);
    expect((box as HTMLInputElement).checked).toBe(true);
    const indicator = box.closest('.fui-Checkbox')?.querySelector('.fui-Checkbox__indicator');
    expect(indicator?.getAttribute('aria-hidden')).toBe('true');
    expect(indicator?.querySelector('svg')).not.toBeNull();
  });

  it('says mixed as the native property, and no longer once all or none are chosen', () => {
    const { rerender } = renderView(<NativeCheckbox checked="mixed" aria-label="Select all" />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all' });
    expect(box.indeterminate).toBe(true);
    rerender(<NativeCheckbox checked aria-label="Select all" />);
    expect(box.indeterminate).toBe(false);
    expect((box as HTMLInputElement).checked).toBe(true);
  });

  it('leaves a click to its container when it has no change handler, and keeps showing its state', () => {
    const onCellClick = vi.fn();
    renderView(
      <div onClick={onCellClick}>
        <NativeCheckbox checked={false} aria-label="Select Lease.pdf" />
      </div>,
    );
    const box = screen.getByRole('checkbox', { name: 'Select Lease.pdf' });
    fireEvent.click(box);
    expect(onCellClick).toHaveBeenCalledTimes(1);
    expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('hands a change over when it has a handler', () => {
    const onChange = vi.fn();
    renderView(<NativeCheckbox checked={false} aria-label="Select Lease.pdf" onChange={onChange} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Lease.pdf' }));
    expect(onChange).toHaveBeenCalledWith(true);
  });
});

describe('the native table', () => {
  it("keeps the table's roles, names and Fluent's classes, with each header's content in its button frame", () => {
    renderView(
      <Table role="grid" aria-label="Documents">
        <TableHeader>
          <TableRow isHeaderRow>
            <TableHeaderCell>Name</TableHeaderCell>
            <TableHeaderCell aria-label="Actions" />
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow appearance="brand" aria-selected tabIndex={0}>
            <TableCell>Lease.pdf</TableCell>
            <TableCell>…</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    const grid = screen.getByRole('grid', { name: 'Documents' });
    expect(grid.classList.contains('fui-Table')).toBe(true);
    expect(screen.getByRole('columnheader', { name: 'Name' }).classList.contains('fui-TableHeaderCell')).toBe(
      true,
    );
    expect(screen.getByRole('columnheader', { name: 'Actions' }).isConnected).toBe(true);
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader.querySelector('.fui-TableHeaderCell__button')?.textContent).toBe('Name');
    const row = screen.getByRole('row', { name: /Lease\.pdf/ });
    expect(row.getAttribute('aria-selected')).toBe('true');
    expect(row.classList.contains('fui-TableRow')).toBe(true);
    expect(screen.getByText('Lease.pdf').classList.contains('fui-TableCell')).toBe(true);
  });

  it('gives a selected row and a header row other classes than a plain row', () => {
    renderView(
      <table>
        <tbody>
          <TableRow data-testid="plain" />
          <TableRow data-testid="brand" appearance="brand" />
          <TableRow data-testid="header" isHeaderRow />
        </tbody>
      </table>,
    );
    const classes = (id: string) => screen.getByTestId(id).className;
    expect(classes('brand')).not.toBe(classes('plain'));
    expect(classes('header')).not.toBe(classes('plain'));
  });
});

describe("the first screen's text", () => {
  it("renders Fluent's Text and presets as the element asked for, with Fluent's class names", () => {
    renderView(
      <>
        <Title2 as="h1" id="heading">
          Documents
        </Title2>
        <Text size={200}>Help</Text>
        <Caption1>Nov 27</Caption1>
      </>,
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'Documents' });
    expect(heading?.getAttribute('id')).toBe('heading');
    expect(heading.className).toMatch(/^fui-Title2 fui-Text /);
    expect(screen.getByText('Help').tagName).toBe('SPAN');
    expect(screen.getByText('Help').className).toMatch(/^fui-Text /);
    expect(screen.getByText('Nov 27').className).toMatch(/^fui-Caption1 fui-Text /);
    expect(screen.getByText('Help').className).not.toBe(screen.getByText('Nov 27').className);
  });
});
