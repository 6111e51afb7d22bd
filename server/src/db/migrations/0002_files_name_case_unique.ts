import { sql, type Kysely } from 'kysely';

/**
 * Stored file names are unique ignoring case (the upload check says so, and a case-insensitive
 * disk would let 'A.zip' overwrite 'a.zip'). The check alone lost a race: two uploads of 'a.zip'
 * and 'A.zip' sent together both passed it. The database now settles it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('files_name_lower_unique')
    .on('files')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_name_lower_unique').execute();
}
