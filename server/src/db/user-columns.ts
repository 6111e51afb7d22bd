/**
 * The columns of a UserRow, selected wherever a whole user is read (the users module, and the
 * session lookup that answers its user in the same statement).
 */
export const USER_COLUMNS = [
  'users.id',
  'users.username',
  'users.username_key',
  'users.avatar_url',
  'users.email',
  'users.is_admin',
  'users.role',
  'users.team_id',
  'users.team_joined_at',
  'users.created_at',
  'users.division_id',
] as const;
