import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './AdminPanel';

describe('the admin tabs under the arrow keys', () => {
  const ids = ['users', 'teams', 'view-challenges', 'audit'];

  it('goes on across sections and wraps round at both ends', () => {
    expect(tabAfterKey('ArrowRight', ids, 'teams')).toBe('view-challenges');
    expect(tabAfterKey('ArrowDown', ids, 'audit')).toBe('users');
    expect(tabAfterKey('ArrowLeft', ids, 'users')).toBe('audit');
    expect(tabAfterKey('ArrowUp', ids, 'view-challenges')).toBe('teams');
  });

  it('jumps to the first and last with Home and End, and ignores other keys', () => {
    expect(tabAfterKey('Home', ids, 'audit')).toBe('users');
    expect(tabAfterKey('End', ids, 'users')).toBe('audit');
    expect(tabAfterKey('Enter', ids, 'users')).toBeNull();
    expect(tabAfterKey('a', ids, 'users')).toBeNull();
  });
});
