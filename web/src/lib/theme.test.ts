import { afterEach, describe, expect, it } from 'vitest';
import { accentCss, currentTheme, THEME_STORAGE_KEY } from './theme';

describe('themes', () => {
  afterEach(() => localStorage.clear());

  it('uses the choice remembered in this browser, else the system preference', () => {
    // jsdom has no matchMedia: the system preference reads as light.
    expect(currentTheme()).toBe('light');
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    expect(currentTheme()).toBe('dark');
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(currentTheme()).toBe('light');
  });

  it("turns the accent into Bootstrap's primary colour, and adds nothing for Bootstrap's own", () => {
    expect(accentCss('#0d6efd')).toBe('');
    expect(accentCss('not a colour')).toBe('');
    const css = accentCss('#198754');
    expect(css).toContain('--bs-primary: #198754');
    expect(css).toContain('--bs-primary-rgb: 25, 135, 84');
    expect(css).toContain('.btn-primary {');
  });
});
