import { settingsApi, type AckResponse, type AdminSettings, type EventSettingsInput } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData, request } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/settings: every event setting and the logo's URL. */
export function useAdminSettings() {
  return useQuery({
    queryKey: queryKeys.admin('settings'),
    queryFn: () => fetchData(settingsApi.getSettings),
  });
}

/** POST /api/admin/settings with only the settings that changed. */
export const saveSettings = (changes: Partial<EventSettingsInput>) =>
  callApi(settingsApi.updateSettings, changes);

/** POST /api/admin/settings/logo: the image in the multipart field 'file'. */
export function uploadLogo(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return request<(AckResponse & { logoUrl: string }) | undefined>(settingsApi.uploadLogo.path, {
    method: 'POST',
    body: form,
    credentials: 'include',
  });
}

/** An ISO time as a datetime-local input shows it: in the admin's own time zone, to the minute. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the admin's time zone) as the UTC ISO time the server stores; null when empty. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The settings that differ between what was loaded and what the form holds. */
export function changedSettings(loaded: AdminSettings, form: AdminSettings): Partial<EventSettingsInput> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(form) as (keyof AdminSettings)[]) {
    if (key === 'logoUrl') continue;
    if (form[key] !== loaded[key]) changes[key] = form[key];
  }
  return changes as Partial<EventSettingsInput>;
}
