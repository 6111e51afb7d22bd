import type { Signal } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { addressNetwork } from '../../lib/ip.js';
import {
  listAddressUsers,
  listBursts,
  listCorrectRows,
  listOtherFlagRows,
  type EvidenceRow,
} from './submission-log.repo.js';

/** Two correct flags this close together from one address are signal (a). */
export const SAME_ADDRESS_WINDOW_MS = 5 * 60 * 1000;
/** A minute with this many wrong attempts over this many challenges is signal (d). */
export const BURST = { attempts: 20, challenges: 5 };

/** A competitor as the board names it: the team, or the user when teamless. */
const competitorOf = (r: { username: string; team_name: string | null }) => r.team_name ?? r.username;

function sameAddressSolves(rows: readonly EvidenceRow[]): Signal[] {
  const signals: Signal[] = [];
  for (let i = 0; i < rows.length; i++) {
    const a = rows[i]!;
    for (let j = i + 1; j < rows.length; j++) {
      const b = rows[j]!;
      if (b.challenge_id !== a.challenge_id) break;
      if (Date.parse(b.created_at) - Date.parse(a.created_at) > SAME_ADDRESS_WINDOW_MS) break;
      if (competitorOf(a) === competitorOf(b)) continue;
      if (addressNetwork(a.address) !== addressNetwork(b.address)) continue;
      const minutes = Math.round((Date.parse(b.created_at) - Date.parse(a.created_at)) / 6000) / 10;
      signals.push({
        kind: 'same_address_solves',
        summary: `${competitorOf(a)} and ${competitorOf(b)} solved '${a.challenge_name}' ${minutes} min apart from ${addressNetwork(a.address)}`,
        competitors: [competitorOf(a), competitorOf(b)],
        submission_ids: [String(a.id), String(b.id)],
      });
    }
  }
  return signals;
}

async function sharedAddresses(ctx: AppContext): Promise<Signal[]> {
  const byNetwork = new Map<string, Map<string, { users: Set<string>; id: number }>>();
  for (const r of await listAddressUsers(ctx.database.db)) {
    const network = addressNetwork(r.address);
    const competitors = byNetwork.get(network) ?? new Map<string, { users: Set<string>; id: number }>();
    const entry = competitors.get(competitorOf(r)) ?? { users: new Set<string>(), id: r.id };
    entry.users.add(r.username);
    entry.id = Math.min(entry.id, r.id);
    competitors.set(competitorOf(r), entry);
    byNetwork.set(network, competitors);
  }
  const signals: Signal[] = [];
  for (const [network, competitors] of byNetwork) {
    if (competitors.size < 2) continue;
    const names = [...competitors.keys()].sort();
    const users = [...competitors.values()].flatMap((c) => [...c.users]).sort();
    signals.push({
      kind: 'shared_address',
      summary: `${names.length} competitors submitted from ${network}: ${users.join(', ')}`,
      competitors: names,
      submission_ids: [...competitors.values()].map((c) => String(c.id)),
    });
  }
  return signals;
}

async function otherFlags(ctx: AppContext): Promise<Signal[]> {
  return (await listOtherFlagRows(ctx.database.db)).map((r) =>
    r.matched_competitor === null
      ? {
          kind: 'other_flag' as const,
          summary: `${r.username} (${competitorOf(r)}) sent the flag of '${r.matched_name ?? '(deleted)'}' to '${r.challenge_name}'`,
          competitors: [competitorOf(r)],
          submission_ids: [String(r.id)],
        }
      : {
          // Certain: nobody but the owner (and admins) can know a per-team flag.
          kind: 'other_team_flag' as const,
          summary: `${r.username} (${competitorOf(r)}) sent the per-team flag of '${r.matched_name ?? '(deleted)'}' that belongs to ${r.matched_competitor} to '${r.challenge_name}': certain, that flag is derived for ${r.matched_competitor} alone`,
          competitors: [competitorOf(r), r.matched_competitor],
          submission_ids: [String(r.id)],
        },
  );
}

async function bursts(ctx: AppContext): Promise<Signal[]> {
  return (await listBursts(ctx.database.db, BURST)).map((b) => ({
    kind: 'burst' as const,
    summary: `${b.username} sent ${b.count} wrong flags over several challenges in the minute ${b.minute.replace('T', ' ')} UTC`,
    competitors: [b.team_name ?? b.username],
    submission_ids: b.ids.map(String),
  }));
}

/**
 * The Integrity tab (GET /api/admin/signals): hints for a human, each with the log rows that are
 * its evidence; nothing is done automatically. Read on demand from the submission log.
 */
export async function listSignals(ctx: AppContext): Promise<Signal[]> {
  const [correct, shared, other, burst] = await Promise.all([
    listCorrectRows(ctx.database.db),
    sharedAddresses(ctx),
    otherFlags(ctx),
    bursts(ctx),
  ]);
  return [...sameAddressSolves(correct), ...other, ...shared, ...burst];
}
