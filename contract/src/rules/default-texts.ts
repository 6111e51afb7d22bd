/**
 * Today's texts, the settings' defaults: with nothing saved every page reads as docs/product.md says.
 * The server serves them (server/src/modules/settings/settings.defaults.ts); web tests use them as
 * the site info a fresh site answers.
 */
import { MAX_TEAM_SIZE } from './constants.js';

export const DEFAULT_NAME = 'Capture The Flag';
export const DEFAULT_TAGLINE = 'A week-long security competition for students of all skill levels.';
/** Bootstrap's own primary colour: the accent a site has until an admin picks one. */
export const DEFAULT_ACCENT = '#0d6efd';

export const DEFAULT_ABOUT_MD = `Our club's Capture The Flag runs for a week. Solve challenges in web exploitation, cryptography, reverse engineering, forensics, steganography, binary exploitation and more, alone or in a team of up to four.
`;

/** Each \`###\` heading is a question of the home page's accordion; what follows it, the answer. */
export const DEFAULT_FAQ_MD = `### What is a CTF?

A Capture The Flag (CTF) is a security competition. Each challenge hides a secret string, the flag, in a web site, a file, a program or a puzzle. Find the flag, submit it, and you earn the challenge's points.

### Do I need to be an expert?

No. Challenges range from Simple to Extreme, so beginners and experienced players alike will find something to solve. It is a great way to learn.

### How should I prepare?

Many challenges are easiest with Kali Linux, which comes with the common security tools installed. Follow our [Kali setup guide](/kali-setup-guide) to run it in a virtual machine, and see [how to connect to remote challenges](/challenge_help).

### How big can a team be?

Teams have up to ${MAX_TEAM_SIZE} members. You can also compete solo. Points you score before joining a team stay with you; points your team scores stay with the team.

### How do I create or join a team?

Open your [Profile](/profile), then choose Go to Team Page. Create a team by entering a name, or pick an existing team from the dropdown and request to join. The team leader approves join requests.
`;

export const DEFAULT_RULES_MD = `- Compete alone or in a team of up to ${MAX_TEAM_SIZE}. Each player has one account and belongs to at most one team.
- Do not share flags, solutions or hints with other players or teams while the event runs.
- Attack only the challenges. The competition's own site, its servers and other players are out of bounds.
- Points you score stay where you scored them: joining a team does not bring your earlier solves, and a team keeps what its members solved while on it.
- Ties on the leaderboard go to whoever reached the score first.
- A challenge marked dynamic is worth less as more players solve it, and everyone who solved it scores its current value: earlier solvers' points fall too.
- Near the end the organisers may freeze the scoreboard: it then shows the standings as they were at the freeze time, and your own new solves still count, until the final reveal.
- Wrong flags are limited per challenge and minute: think before you guess.
- The organisers' decisions are final. Found a problem with a challenge? Tell them on the community server.
`;

/**
 * The defaults' HTML as renderMarkdown() makes it (settings.test.ts checks they agree), so that
 * serving the default texts never loads the sanitiser's DOM.
 */
export const DEFAULT_HTML = {
  aboutMd:
    "<p>Our club's Capture The Flag runs for a week. Solve challenges in web exploitation, cryptography, reverse engineering, forensics, steganography, binary exploitation and more, alone or in a team of up to four.</p>",
  rulesMd:
    "<ul>\n<li>Compete alone or in a team of up to 4. Each player has one account and belongs to at most one team.</li>\n<li>Do not share flags, solutions or hints with other players or teams while the event runs.</li>\n<li>Attack only the challenges. The competition's own site, its servers and other players are out of bounds.</li>\n<li>Points you score stay where you scored them: joining a team does not bring your earlier solves, and a team keeps what its members solved while on it.</li>\n<li>Ties on the leaderboard go to whoever reached the score first.</li>\n<li>A challenge marked dynamic is worth less as more players solve it, and everyone who solved it scores its current value: earlier solvers' points fall too.</li>\n<li>Near the end the organisers may freeze the scoreboard: it then shows the standings as they were at the freeze time, and your own new solves still count, until the final reveal.</li>\n<li>Wrong flags are limited per challenge and minute: think before you guess.</li>\n<li>The organisers' decisions are final. Found a problem with a challenge? Tell them on the community server.</li>\n</ul>",
  faqMd:
    '<h3>What is a CTF?</h3>\n<p>A Capture The Flag (CTF) is a security competition. Each challenge hides a secret string, the flag, in a web site, a file, a program or a puzzle. Find the flag, submit it, and you earn the challenge\'s points.</p>\n<h3>Do I need to be an expert?</h3>\n<p>No. Challenges range from Simple to Extreme, so beginners and experienced players alike will find something to solve. It is a great way to learn.</p>\n<h3>How should I prepare?</h3>\n<p>Many challenges are easiest with Kali Linux, which comes with the common security tools installed. Follow our <a href="/kali-setup-guide" rel="noopener noreferrer">Kali setup guide</a> to run it in a virtual machine, and see <a href="/challenge_help" rel="noopener noreferrer">how to connect to remote challenges</a>.</p>\n<h3>How big can a team be?</h3>\n<p>Teams have up to 4 members. You can also compete solo. Points you score before joining a team stay with you; points your team scores stay with the team.</p>\n<h3>How do I create or join a team?</h3>\n<p>Open your <a href="/profile" rel="noopener noreferrer">Profile</a>, then choose Go to Team Page. Create a team by entering a name, or pick an existing team from the dropdown and request to join. The team leader approves join requests.</p>',
};
