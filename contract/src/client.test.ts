import { describe, expect, it } from 'vitest';
import * as client from './client.js';
import * as full from './index.js';

const AREAS = [
  'authApi',
  'siteApi',
  'usersApi',
  'teamsApi',
  'challengesApi',
  'leaderboardApi',
  'adminApi',
  'announcementsApi',
  'webhookApi',
] as const;

describe("the web's entry of the contract", () => {
  it.each(AREAS)(
    '%s: every endpoint with the method and path the server registers, and no schema',
    (area) => {
      const endpoints = Object.entries(full[area]).filter(
        ([, v]) => typeof v === 'object' && v !== null && 'path' in v && 'response' in v,
      );
      expect(endpoints.length).toBeGreaterThan(0);
      for (const [name, ep] of endpoints) {
        const route = (client[area] as Record<string, unknown>)[name];
        expect(route, `${area}.${name}`).toEqual({
          method: ep.method,
          path: ep.path,
          ...(ep.acts ? { acts: true } : {}),
        });
      }
    },
  );

  it('keeps the helpers the web calls through the areas', () => {
    expect(client.challengesApi.DOWNLOAD_PATH_PREFIX).toBe(full.challengesApi.DOWNLOAD_PATH_PREFIX);
    expect(client.adminApi.confirmDeleteText('team')).toBe(full.adminApi.confirmDeleteText('team'));
    expect(client.adminApi.looksLikeZip('a.zip', '')).toBe(true);
    expect(client.adminApi.uploadSummaryText(1, 2)).toBe(full.adminApi.uploadSummaryText(1, 2));
  });
});
