import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AdminTable, useCursorPages, type AdminColumn } from './AdminTable';

interface Row {
  id: string;
  name: string;
}
const columns: AdminColumn<Row>[] = [
  { header: 'Name', cell: (r) => r.name },
  {
    header: 'Actions',
    hideHeader: true,
    end: true,
    cell: (r) => <button type="button">Act on {r.name}</button>,
  },
];
const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: String(i + 1), name: `row ${i + 1}` }));
const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Things' }))
    .getAllByRole('row')
    .slice(1);

describe('AdminTable', () => {
  it('shows the empty text instead of a table when there is no row', () => {
    render(
      <AdminTable
        label="Things"
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        empty={<p>Nothing yet.</p>}
      />,
    );
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('names the table, keeps an actions header for screen readers and fills each cell', () => {
    render(<AdminTable label="Things" columns={columns} rows={rows(2)} rowKey={(r) => r.id} empty="none" />);
    expect(
      screen.getByRole('columnheader', { name: 'Actions' }).querySelector('.visually-hidden'),
    ).not.toBeNull();
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Act on row 2' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('pages a long list in the browser and searches all of it', async () => {
    render(
      <AdminTable
        label="Things"
        columns={columns}
        rows={rows(120)}
        rowKey={(r) => r.id}
        pageSize={50}
        search={{ label: 'Search things', text: (r) => r.name }}
        empty="none"
      />,
    );
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByTestId('page-indicator')).toHaveTextContent('Page 1 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('cell', { name: 'row 51' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search things' }), 'ROW 11');
    // row 11, row 110..119: the search covers every page and goes back to the first.
    expect(bodyRows()).toHaveLength(11);
    expect(screen.queryByRole('navigation')).toBeNull();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search things' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search things' }), 'zzz');
    expect(screen.getByRole('cell', { name: 'No matching rows.' })).toBeInTheDocument();
  });

  it('pages a server list by cursor, back and forth, and starts again when the filters change', async () => {
    // A fake server: pages of 2 rows, the cursor is the index of the next row.
    const all = rows(5);
    const seen: (string | null)[] = [];
    function ServerList() {
      const [filter, setFilter] = useState('a');
      const pages = useCursorPages(filter);
      seen.push(pages.cursor);
      const start = Number(pages.cursor ?? 0);
      const next = start + 2 < all.length ? String(start + 2) : null;
      return (
        <>
          <button type="button" onClick={() => setFilter('b')}>
            Change filter
          </button>
          <AdminTable
            label="Things"
            columns={columns}
            rows={all.slice(start, start + 2)}
            rowKey={(r) => r.id}
            empty="none"
            paging={pages.paging(next)}
          />
        </>
      );
    }
    render(<ServerList />);
    expect(screen.getByTestId('page-indicator')).toHaveTextContent(/^Page 1$/);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('cell', { name: 'row 5' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(screen.getByRole('cell', { name: 'row 3' })).toBeInTheDocument();
    expect(screen.getByTestId('page-indicator')).toHaveTextContent('Page 2');
    await userEvent.click(screen.getByRole('button', { name: 'Change filter' }));
    expect(screen.getByTestId('page-indicator')).toHaveTextContent('Page 1');
    expect(seen.at(-1)).toBeNull();
  });
});
