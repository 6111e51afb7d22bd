import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_files_name_case_unique.js';
import * as m0003 from './migrations/0003_covering_score_indexes.js';
import * as m0004 from './migrations/0004_sqlite_solve_changes.js';
import * as m0005 from './migrations/0005_postgres_solve_count.js';
import * as m0006 from './migrations/0006_postgres_unlogged_rate_limits.js';
import * as m0007a from './migrations/0007_a_live_events.js';
import * as m0007b from './migrations/0007_b_announcements.js';
import * as m0007c from './migrations/0007_c_first_blood_notices.js';
import * as m0007d from './migrations/0007_d_webhook_outbox.js';
import * as m0008a from './migrations/0008_a_challenge_authoring.js';
import * as m0009 from './migrations/0009_event_settings.js';
import * as m0010a from './migrations/0010_a_audit_log.js';
import * as m0010b from './migrations/0010_b_moderation.js';
import * as m0010c from './migrations/0010_c_submission_log.js';
import * as m0010d from './migrations/0010_d_signals.js';
import * as m0011 from './migrations/0011_dynamic_scoring.js';
import * as m0012b from './migrations/0012_b_per_team_flags.js';
import * as m0012d from './migrations/0012_d_held_first_bloods.js';
import * as m0013 from './migrations/0013_submission_log_write_cost.js';
import * as m0014i from './migrations/0014_i_instances.js';
import * as m0015h from './migrations/0015_h_outbox_refs.js';
import * as m0016a from './migrations/0016_a_awards.js';
import * as m0016t from './migrations/0016_t_api_tokens.js';
import * as m0017r from './migrations/0017_r_staff_roles.js';
import * as m0018w from './migrations/0018_w_writeups.js';
import * as m0019e from './migrations/0019_e_email_accounts.js';
import * as m0019o from './migrations/0019_o_challenge_owners.js';
import * as m0019s from './migrations/0019_s_token_scopes.js';
import * as m0020p from './migrations/0020_p_sign_in_indexes.js';
import * as m0021u from './migrations/0021_u_uncounted_indexes.js';

/** Append-only, numbered. Kysely's migrator takes a lock, so one process migrates and others wait. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_files_name_case_unique': m0002,
  '0003_covering_score_indexes': m0003,
  '0004_sqlite_solve_changes': m0004,
  '0005_postgres_solve_count': m0005,
  '0006_postgres_unlogged_rate_limits': m0006,
  '0007_a_live_events': m0007a,
  '0007_b_announcements': m0007b,
  '0007_c_first_blood_notices': m0007c,
  '0007_d_webhook_outbox': m0007d,
  '0008_a_challenge_authoring': m0008a,
  '0009_event_settings': m0009,
  '0010_a_audit_log': m0010a,
  '0010_b_moderation': m0010b,
  '0010_c_submission_log': m0010c,
  '0010_d_signals': m0010d,
  '0011_dynamic_scoring': m0011,
  '0012_b_per_team_flags': m0012b,
  '0012_d_held_first_bloods': m0012d,
  '0013_submission_log_write_cost': m0013,
  '0014_i_instances': m0014i,
  '0015_h_outbox_refs': m0015h,
  '0016_a_awards': m0016a,
  '0016_t_api_tokens': m0016t,
  '0017_r_staff_roles': m0017r,
  '0018_w_writeups': m0018w,
  '0019_e_email_accounts': m0019e,
  '0019_o_challenge_owners': m0019o,
  '0019_s_token_scopes': m0019s,
  '0020_p_sign_in_indexes': m0020p,
  '0021_u_uncounted_indexes': m0021u,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The names of the migrations this version knows (a backup from a newer schema is refused). */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(MIGRATIONS).sort();

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  // Issues land their numbered migrations in any order (0010 may reach a database before 0008).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
}

/** Runs the migrations up to and including `name` (a test's database from before a later one). */
export async function migrateUpTo(db: Kysely<unknown>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
