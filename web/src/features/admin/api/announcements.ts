import { announcementsApi, webhookApi, type AnnouncementInput } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/announcements: every announcement with its Markdown, for editing. */
export function useAdminAnnouncements() {
  return useQuery({
    queryKey: queryKeys.admin('announcements'),
    queryFn: () => fetchData(announcementsApi.adminAnnouncements),
  });
}

/** POST /api/admin/announcements/create {title, body, pinned}. */
export const createAnnouncement = (input: AnnouncementInput) =>
  callApi(announcementsApi.createAnnouncement, input);

/** POST /api/admin/announcements/update {_id, title, body, pinned}. */
export const updateAnnouncement = (id: string, input: Required<AnnouncementInput>) =>
  callApi(announcementsApi.updateAnnouncement, { _id: id, ...input });

/** POST /api/admin/announcements/delete {_id}. */
export const deleteAnnouncement = (id: string) => callApi(announcementsApi.deleteAnnouncement, { _id: id });

/** GET /api/admin/webhook/status: the Discord webhook's state. */
export function useWebhookStatus() {
  return useQuery({
    queryKey: queryKeys.admin('webhook'),
    queryFn: () => fetchData(webhookApi.webhookStatus),
  });
}
