import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { SITE } from '../../../test/factories';
import { renderAt } from '../../../test/render';
import { HomePage } from './HomePage';

describe('Home page from the settings', () => {
  it('with the default settings reads as docs/product.md says: title, no prize line, five FAQ questions', async () => {
    mockApi({ 'GET /api/info/site': () => json(SITE) });
    renderAt(<HomePage />, '/');
    expect(await screen.findByText(/runs for a week/)).toBeInTheDocument();
    // No prize text set: no prize line, nothing promised.
    expect(screen.queryByTestId('prize-text')).toBeNull();
    expect(screen.queryByText(/prizes?/i)).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Capture The Flag' })).toBeInTheDocument();
    expect(
      screen.getByText('A week-long security competition for students of all skill levels.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register Here' })).toHaveAttribute('href', '/profile');
    expect(screen.getByText(/runs for a week/)).toBeInTheDocument();
    const faq = screen.getByRole('region', { name: 'FAQ' });
    const questions = within(faq)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(questions).toEqual([
      'What is a CTF?',
      'Do I need to be an expert?',
      'How should I prepare?',
      'How big can a team be?',
      'How do I create or join a team?',
    ]);
    await userEvent.click(within(faq).getByRole('button', { name: 'How should I prepare?' }));
    expect(within(faq).getByRole('link', { name: 'Kali setup guide' })).toHaveAttribute(
      'href',
      '/kali-setup-guide',
    );
  });

  it('shows the saved name, tagline, About and FAQ, sanitised again in the browser', async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({
          ...SITE,
          name: 'Spring CTF',
          tagline: 'For first-years',
          about_html: '<p>Welcome <img src="x" onerror="alert(1)"></p>',
          faq_html: '<p>Read this first.</p><h3>When?</h3><p>In spring.</p>',
          prizeText: 'Pizza and stickers for the top three teams.',
        }),
    });
    renderAt(<HomePage />, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring CTF' })).toBeInTheDocument();
    expect(screen.getByText('For first-years')).toBeInTheDocument();
    // The organisers' own sentence, as written: nothing fitted around it.
    expect(screen.getByTestId('prize-text')).toHaveTextContent(
      /^Pizza and stickers for the top three teams\.$/,
    );
    expect(document.querySelector('[onerror]')).toBeNull();
    expect(screen.getByText('Read this first.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'When?' })).toBeInTheDocument();
  });
});
