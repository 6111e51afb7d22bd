import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { SITE } from '../../../test/factories';
import { renderAt } from '../../../test/render';
import { RulesPage } from './RulesPage';

describe('Rules page from the settings', () => {
  it('shows the rules on /rules', async () => {
    mockApi({ 'GET /api/info/site': () => json({ ...SITE, rules_html: '<ul><li>Be nice</li></ul>' }) });
    renderAt(<RulesPage />, '/rules');
    expect(await screen.findByText('Be nice')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Rules' })).toBeInTheDocument();
  });
});
