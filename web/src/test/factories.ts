import {
  DEFAULT_ACCENT,
  DEFAULT_HTML,
  DEFAULT_NAME,
  DEFAULT_TAGLINE,
  type AdminChallenge,
  type PublicChallenge,
  type SiteInfo,
  type Team,
  type User,
} from '@ctf/contract';

/** API objects in their contract shapes, for component tests. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: '1',
    username: 'alice',
    avatarUrl: '',
    email: 'alice@example.org',
    team: 'None',
    team_id: null,
    is_leader: false,
    is_admin: false,
    role: 'player',
    completions: [],
    user_rates: [],
    awards: [],
    ...overrides,
  };
}

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    _id: '7',
    name: 'Rooks',
    team_leader: 'alice',
    members: ['alice', 'bob'],
    join_requests: [{ _id: '31', checksum: 'sum-31', sender_name: 'carol' }],
    completions: [],
    awards: [],
    memberCount: 2,
    spotsLeft: 2,
    ...overrides,
  };
}

export function makeChallenge(n: number, overrides: Partial<PublicChallenge> = {}): PublicChallenge {
  return {
    _id: String(n),
    name: `Challenge ${n}`,
    description: `<p>Description of challenge ${n}</p>`,
    category: 'General',
    difficulty: 'Easy',
    written_by: 'Author A',
    points: 100,
    scoring_type: 'static',
    rating: 0,
    is_active: true,
    user_completions: 0,
    hlinks: [],
    first_blood: null,
    ...overrides,
  };
}

export function makeAdminChallenge(n: number, overrides: Partial<AdminChallenge> = {}): AdminChallenge {
  return {
    ...makeChallenge(n),
    flag: `flag{${n}}`,
    flags: [{ type: 'static', content: `flag{${n}}` }],
    per_team: false,
    per_team_on_page: false,
    max_attempts: null,
    hints: [],
    release_at: null,
    prerequisites: [],
    scoring: { type: 'static' },
    instance: null,
    solution: null,
    owners: [],
    ...overrides,
  };
}

export const SITE: SiteInfo = {
  eventStart: '2025-10-15T01:00:00.000Z',
  eventEnd: '2025-10-22T01:00:00.000Z',
  prizeText: '',
  communityUrl: 'https://discord.com/',
  toolsUrl: 'https://example.org/',
  challengeHost: 'challenges.example.org',
  challengePort: 2530,
  activated: true,
  freezeAt: null,
  login: { discord: true, github: true, local: false },
  loginMethods: ['discord', 'github'],
  oidcLabel: null,
  name: DEFAULT_NAME,
  tagline: DEFAULT_TAGLINE,
  about_html: DEFAULT_HTML.aboutMd,
  rules_html: DEFAULT_HTML.rulesMd,
  faq_html: DEFAULT_HTML.faqMd,
  logoUrl: null,
  accent: DEFAULT_ACCENT,
  afterEnd: 'open',
  divisions: [],
  firstAdminNeeded: false,
  writeups: { open: false, deadline: null, note: '' },
};
