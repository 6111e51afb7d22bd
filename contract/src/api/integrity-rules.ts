/**
 * Integrity's zod-free constants, shared by the server and the web's admin tabs (api/integrity.ts
 * re-exports them as part of integrityApi).
 */

/** Every admin action's name in the audit log; a new admin action is added here first. */
export const AUDIT_ACTIONS = [
  'challenge.create',
  'challenge.update',
  'challenge.toggle',
  'challenge.delete',
  'challenge.schedule',
  'challenge.reveal_team_flag',
  'challenge.import',
  'challenge.export',
  'event.archive',
  'file.upload',
  'file.delete',
  'user.remove',
  'team.remove',
  'admin.remove',
  'admin.promote',
  'user.role',
  'user.competing',
  'site.switch',
  'scoreboard.freeze',
  'cache.force_update',
  'moderation.hide',
  'moderation.unhide',
  'moderation.ban',
  'moderation.unban',
  'settings.update',
  'divisions.update',
  'announcement.create',
  'announcement.update',
  'announcement.delete',
  'instance.start',
  'instance.renew',
  'instance.stop',
  'instance.expire',
  'award.give',
  'award.delete',
  'writeup.review',
  'writeup.export',
  'token.create',
  'token.revoke',
  'user.resend_confirmation',
  'email.block',
  'email.unblock',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a flag attempt came to, as the submission log records it. */
export const SUBMISSION_RESULTS = [
  'correct',
  'wrong',
  'rate_limited',
  'already_solved',
  'no_attempts_left',
] as const;
export type SubmissionResultName = (typeof SUBMISSION_RESULTS)[number];

/** A wrong attempt's text is kept cut to this many characters. */
export const SUBMITTED_TEXT_MAX = 200;

/** The most submission ids one request may ask for (the Integrity tab links to at most this many). */
export const EVIDENCE_IDS_MAX = 200;
