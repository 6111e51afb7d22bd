import type { EmailCredentialsTable, EmailTokensTable, Executor } from '../../db/schema.js';

export async function findCredentialsByEmail(
  db: Executor,
  email: string,
): Promise<(EmailCredentialsTable & { username: string }) | undefined> {
  return db
    .selectFrom('email_credentials')
    .innerJoin('users', 'users.id', 'email_credentials.user_id')
    .select([
      'email_credentials.user_id',
      'email_credentials.email',
      'email_credentials.password_hash',
      'email_credentials.confirmed_at',
      'email_credentials.created_at',
      'users.username',
    ])
    .where('email_credentials.email', '=', email)
    .executeTakeFirst();
}

export async function findCredentialsOfUser(
  db: Executor,
  userId: number,
): Promise<EmailCredentialsTable | undefined> {
  return db.selectFrom('email_credentials').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertCredentials(db: Executor, row: EmailCredentialsTable): Promise<void> {
  await db.insertInto('email_credentials').values(row).execute();
}

export async function updateCredentials(
  db: Executor,
  userId: number,
  patch: { password_hash?: string; confirmed_at?: string },
): Promise<void> {
  await db.updateTable('email_credentials').set(patch).where('user_id', '=', userId).execute();
}

export async function deleteCredentials(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('email_credentials').where('user_id', '=', userId).execute();
}

export async function insertEmailToken(db: Executor, row: EmailTokensTable): Promise<void> {
  await db.insertInto('email_tokens').values(row).execute();
}

export async function peekEmailToken(db: Executor, tokenHash: string): Promise<EmailTokensTable | undefined> {
  return db.selectFrom('email_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Takes a token out of the store: whoever deletes it first owns it, so a link works once. */
export async function takeEmailToken(db: Executor, tokenHash: string): Promise<EmailTokensTable | undefined> {
  return db.deleteFrom('email_tokens').where('token_hash', '=', tokenHash).returningAll().executeTakeFirst();
}

export async function deleteTokensOfUser(
  db: Executor,
  userId: number,
  purpose: 'confirm' | 'reset',
): Promise<void> {
  await db.deleteFrom('email_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

export async function deleteExpiredTokens(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('email_tokens').where('expires_at', '<=', nowIso).execute();
}

export async function isBlocked(db: Executor, email: string): Promise<boolean> {
  return (
    (await db.selectFrom('blocked_emails').select('email').where('email', '=', email).executeTakeFirst()) !==
    undefined
  );
}

/** Every account's ways in, and its e-mail sign-in's confirmation when it has one. */
export async function listSignIns(
  db: Executor,
): Promise<{ user_id: number; provider: string; confirmed_at: string | null; has_email: number }[]> {
  return db
    .selectFrom('identities')
    .leftJoin('email_credentials', 'email_credentials.user_id', 'identities.user_id')
    .select([
      'identities.user_id',
      'identities.provider',
      'email_credentials.confirmed_at',
      (eb) =>
        eb.case().when('email_credentials.user_id', 'is not', null).then(1).else(0).end().as('has_email'),
    ])
    .orderBy('identities.user_id')
    .orderBy('identities.id')
    .execute();
}

export async function listBlocked(db: Executor): Promise<{ email: string; created_at: string }[]> {
  return db.selectFrom('blocked_emails').selectAll().orderBy('email').execute();
}

export async function setBlocked(
  db: Executor,
  email: string,
  blocked: boolean,
  nowIso: string,
): Promise<boolean> {
  if (!blocked) {
    const r = await db.deleteFrom('blocked_emails').where('email', '=', email).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
  const r = await db
    .insertInto('blocked_emails')
    .values({ email, created_at: nowIso })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
