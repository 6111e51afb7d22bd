import { MESSAGES, UI_TEXT } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { isGreen, teamMessageFor } from './team-message';

describe('team page message colours (docs/product.md §8)', () => {
  it.each([
    ['create', MESSAGES.teamCreated, true],
    ['request', MESSAGES.requestSent, true],
    ['update', MESSAGES.teamUpdated, true],
    ['update', 'Renamed successfully', true],
    ['update', 'A team with this name already exists', false],
    ['create', 'A team with this name already exists', false],
    ['request', 'Team is full', false],
    ['leave', 'You left the team.', false],
    ['remove', 'Member removed successfully', false],
    ['accept', 'Member added to the team.', false],
  ] as const)('%s: %j is green: %s', (action, text, green) => {
    expect(isGreen(action, text)).toBe(green);
  });

  it('uses the server message of a success or a refusal', () => {
    expect(
      teamMessageFor('request', { ok: true, status: 200, data: { message: MESSAGES.requestSent } }),
    ).toEqual({
      text: MESSAGES.requestSent,
      success: true,
    });
    expect(teamMessageFor('request', { ok: false, status: 409, message: 'Team is full' })).toEqual({
      text: 'Team is full',
      success: false,
    });
  });

  it('answers the texts of docs/product.md §8 for empty answers', () => {
    const empty = { ok: false as const, status: 500, message: '' };
    expect(teamMessageFor('accept', empty).text).toBe(UI_TEXT.errorAddingMember);
    expect(teamMessageFor('leave', empty).text).toBe(UI_TEXT.errorAddingMember);
    expect(teamMessageFor('remove', empty).text).toBe(UI_TEXT.errorRemovingMember);
    expect(teamMessageFor('accept', { ok: true, status: 200, data: {} }).text).toBe(
      UI_TEXT.errorAddingMember,
    );
    expect(teamMessageFor('remove', { ok: true, status: 200, data: {} }).success).toBe(false);
  });
});
