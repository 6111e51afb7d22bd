import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SITE, baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const exportLink = (name: string) => screen.getByRole('link', { name });

describe('Scoreboard exports', { timeout: 20_000 }, () => {
  it('link to the whole board while the site has no divisions (no division picker)', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    expect(await screen.findByRole('link', { name: 'Scoreboard (CSV)' })).toHaveAttribute(
      'href',
      '/api/admin/export/scoreboard.csv',
    );
    expect(screen.queryByLabelText('Exports of')).toBeNull();
    expect(exportLink('Download archive (ZIP)')).toHaveAttribute('href', '/api/admin/archive.zip');
  });

  it("link to one division's board and solves once it is picked", async () => {
    mockApi(
      baseRoutes({ 'GET /api/info/site': () => json({ ...SITE, divisions: ['First-years', 'Open'] }) }),
    );
    renderPage(<AdminPanel />);
    const picker = await screen.findByLabelText('Exports of');
    expect(exportLink('Solves (JSON)')).toHaveAttribute('href', '/api/admin/export/solves.json');
    await userEvent.selectOptions(picker, 'First-years');
    expect(exportLink('Scoreboard (CSV)')).toHaveAttribute(
      'href',
      '/api/admin/export/scoreboard.csv?division=First-years',
    );
    expect(exportLink('Solves (JSON)')).toHaveAttribute(
      'href',
      '/api/admin/export/solves.json?division=First-years',
    );
    await userEvent.selectOptions(picker, 'Every division');
    expect(exportLink('Scoreboard (JSON)')).toHaveAttribute('href', '/api/admin/export/scoreboard.json');
  });
});
