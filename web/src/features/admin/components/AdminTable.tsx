import { useState, type ReactNode } from 'react';
import { adminApi } from '@ctf/contract';
import { Button, Form, Table } from 'react-bootstrap';
import type { AdminAct } from '../use-admin-action';
import { Pagination } from '../../../components/Pagination';

/** One column of an admin list: its header and how a row fills its cell. */
export interface AdminColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The header is read by screen readers only (an actions column). */
  hideHeader?: boolean;
  /** Right-aligned cell (buttons). */
  end?: boolean;
  /** The cell's content stays on one line (a row of buttons). */
  nowrap?: boolean;
}

/** The cell's classes for a column's alignment and wrapping. */
function cellClass<T>(c: AdminColumn<T>): string | undefined {
  return [c.end && 'text-end', c.nowrap && 'text-nowrap'].filter(Boolean).join(' ') || undefined;
}

/** Server-side paging: the page shown and whether the server has another after it. */
export interface ServerPaging {
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
}

interface Props<T> {
  /** The table's accessible name ('Users'); also names its page navigation. */
  label: string;
  columns: AdminColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there is no row at all (before any search). */
  empty: ReactNode;
  /** Above the table: a count, or the tab's filter form. */
  summary?: ReactNode;
  /** A search box filtering the rows in the browser, matched case-insensitively against text(row). */
  search?: { label: string; text: (row: T) => string };
  /** Rows per page when the whole list is in the browser (default 50). */
  pageSize?: number;
  /** The list is paged by the server instead: rows are the current page. */
  paging?: ServerPaging;
  /** A data-testid on every row. */
  rowTestId?: string;
}

export const ADMIN_PAGE_SIZE = 50;

/**
 * The one table of the admin panel: every list tab (users, teams, admins, submissions, audit, ...)
 * renders through it, so headers, empty text, search and paging look and behave the same.
 * A list held whole in the browser is searched and paged here; a server-paged list passes `paging`.
 */
export function AdminTable<T>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  summary,
  search,
  pageSize = ADMIN_PAGE_SIZE,
  paging,
  rowTestId,
}: Props<T>) {
  const [query, setQuery] = useState('');
  const [localPage, setLocalPage] = useState(1);

  const needle = query.trim().toLowerCase();
  const matched = search && needle ? rows.filter((r) => search.text(r).toLowerCase().includes(needle)) : rows;
  const pageCount = paging ? undefined : Math.max(1, Math.ceil(matched.length / pageSize));
  const page = paging ? paging.page : Math.min(localPage, pageCount ?? 1);
  const shown = paging ? matched : matched.slice((page - 1) * pageSize, page * pageSize);
  const showPager = paging ? paging.page > 1 || paging.hasNext : (pageCount ?? 1) > 1;

  return (
    <>
      {summary}
      {rows.length === 0 && !(paging && paging.page > 1) ? (
        empty
      ) : (
        <>
          {search && (
            <Form.Group className="mb-2" controlId={`admin-search-${label}`}>
              <Form.Label className="visually-hidden">{search.label}</Form.Label>
              <Form.Control
                type="search"
                size="sm"
                placeholder={search.label}
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setLocalPage(1);
                }}
              />
            </Form.Group>
          )}
          {/* The scrolling wrapper takes focus, so a keyboard can scroll a table wider than a phone
              even when its rows hold no button (a monitor's read-only lists). */}
          <div className="table-responsive" tabIndex={0} role="region" aria-label={`${label} table`}>
            <Table striped size="sm" aria-label={label}>
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th scope="col" key={c.header} className={c.end ? 'text-end' : undefined}>
                      {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.length === 0 ? (
                  <tr>
                    <td colSpan={columns.length}>No matching rows.</td>
                  </tr>
                ) : (
                  shown.map((row) => (
                    <tr key={rowKey(row)} data-testid={rowTestId}>
                      {columns.map((c) => (
                        <td key={c.header} className={cellClass(c)}>
                          {c.cell(row)}
                        </td>
                      ))}
                    </tr>
                  ))
                )}
              </tbody>
            </Table>
          </div>
          {showPager && (
            <Pagination
              label={`${label} pages`}
              size="sm"
              page={page}
              pageCount={pageCount}
              hasNext={paging?.hasNext}
              onPage={paging ? paging.onPage : setLocalPage}
            />
          )}
        </>
      )}
    </>
  );
}

/**
 * Cursor paging for a server-paged tab: remembers the cursor of every page seen so Prev works, and
 * starts again at page 1 whenever `filterKey` (the tab's filters, serialised) changes.
 */
export function useCursorPages(filterKey: string) {
  const [state, setState] = useState<{ key: string; cursors: (string | null)[]; page: number }>({
    key: filterKey,
    cursors: [null],
    page: 1,
  });
  const current = state.key === filterKey ? state : { key: filterKey, cursors: [null], page: 1 };
  return {
    /** The cursor to send for the page shown (null for the first). */
    cursor: current.cursors[current.page - 1] ?? null,
    /** AdminTable's `paging`, given the server's next_cursor for the page shown. */
    paging(nextCursor: string | null | undefined): ServerPaging {
      return {
        page: current.page,
        hasNext: nextCursor != null,
        onPage: (target) => {
          const cursors = current.cursors.slice(0, current.page);
          if (target > current.page && nextCursor != null) cursors.push(nextCursor);
          setState({ key: filterKey, cursors, page: Math.max(1, Math.min(target, cursors.length)) });
        },
      };
    },
  };
}

/**
 * The Delete column of a list tab: docs/product.md's confirmation ('Are you sure you want to delete this
 * user?'), then the removal through the panel's message area.
 */
export function deleteColumn<T>(
  what: 'user' | 'team' | 'admin',
  name: (row: T) => string,
  remove: (row: T) => ReturnType<Parameters<AdminAct>[0]>,
  act: AdminAct,
): AdminColumn<T> {
  return {
    header: 'Actions',
    hideHeader: true,
    end: true,
    cell: (row) => (
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Delete ${what} ${name(row)}`}
        onClick={() => {
          if (window.confirm(adminApi.confirmDeleteText(what))) void act(() => remove(row));
        }}
      >
        Delete
      </Button>
    ),
  };
}
