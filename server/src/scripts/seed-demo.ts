import { Readable } from 'node:stream';
import type { ChallengeInput } from '@ctf/contract';
import type { AppContext } from '../context.js';
import { makeZip } from '../lib/zip.js';
import { createChallenge, listChallengesForAdmin } from '../modules/challenges/challenges.service.js';
import { listUploads, saveUpload } from '../modules/files/files.service.js';
import { setSiteActive } from '../modules/site/site.service.js';
import { isEntryPoint, withApp } from './cli.js';
import { DEMO_EVENT, seedDemoEvent } from './seed-demo-event.js';

type DemoChallenge = Omit<ChallengeInput, 'files' | 'points'> & {
  file?: { name: string; entries: { name: string; content: string }[] };
};

/** One playable challenge per category, each solvable from what it shows. */
export const DEMO_CHALLENGES: DemoChallenge[] = [
  {
    name: 'Welcome Aboard',
    category: 'General',
    difficulty: 'Simple',
    written_by: 'CTF Team',
    description:
      '<p>Every flag looks like <code>flag{...}</code>. Here is your first one: <code>flag{welcome_to_the_ctf}</code></p>',
    flag: 'flag{welcome_to_the_ctf}',
  },
  {
    name: 'Caesar Salad',
    category: 'Cryptography',
    difficulty: 'Easy',
    written_by: 'CTF Team',
    description: '<p>Julius left a note: <code>synt{ebgngr_guvegrra}</code>. It has been rotated by 13.</p>',
    flag: 'flag{rotate_thirteen}',
  },
  {
    name: 'View Source',
    category: 'Web Exploitation',
    difficulty: 'Easy',
    written_by: 'CTF Team',
    description:
      '<p>Web developers leave comments everywhere. The downloadable page below has one you should read.</p>',
    flag: 'flag{always_read_the_source}',
    file: {
      name: 'view-source.zip',
      entries: [
        {
          name: 'index.html',
          content: '<html><body><h1>Nothing here</h1><!-- flag{always_read_the_source} --></body></html>\n',
        },
      ],
    },
  },
  {
    name: 'Strings Attached',
    category: 'Reverse Engineering',
    difficulty: 'Medium',
    written_by: 'CTF Team',
    description:
      '<p>This "program" checks a password. You do not need to run it: <code>strings</code> is enough.</p>',
    flag: 'flag{strings_reveal_secrets}',
    file: {
      name: 'strings-attached.zip',
      entries: [
        {
          name: 'checker.bin',
          content: '\u0000\u0001ELF?\u0000junk\u0000password=flag{strings_reveal_secrets}\u0000more junk\n',
        },
      ],
    },
  },
  {
    name: 'Hidden Layers',
    category: 'Forensics',
    difficulty: 'Medium',
    written_by: 'CTF Team',
    description: '<p>The archive contains a log with a base64 line that does not belong: decode it.</p>',
    flag: 'flag{base64_is_not_encryption}',
    file: {
      name: 'hidden-layers.zip',
      entries: [
        {
          name: 'server.log',
          content: `GET / 200\nGET /favicon.ico 404\n${Buffer.from('flag{base64_is_not_encryption}').toString('base64')}\nGET /login 200\n`,
        },
      ],
    },
  },
  {
    name: 'First Letters',
    category: 'Steganography',
    difficulty: 'Hard',
    written_by: 'CTF Team',
    description:
      '<p>Read between the lines, or rather, the first letter of each line of the poem, then wrap it as <code>flag{...}</code> in lower case.</p>',
    flag: 'flag{acrostic}',
    file: {
      name: 'first-letters.zip',
      entries: [
        {
          name: 'poem.txt',
          content:
            'All night the stars\nCircle the quiet hill\nRivers remember\nOld songs\nSilver and slow\nTides turn\nIn the dark\nCalm returns\n',
        },
      ],
    },
  },
  {
    name: 'Overflowing Cup',
    category: 'Binary Exploitation',
    difficulty: 'Extreme',
    written_by: 'CTF Team',
    description:
      '<p>The C source in the archive copies your input into a 16-byte buffer with <code>gets</code>. Work out the flag the <code>win</code> function prints.</p>',
    flag: 'flag{never_use_gets}',
    file: {
      name: 'overflowing-cup.zip',
      entries: [
        {
          name: 'cup.c',
          content:
            '#include <stdio.h>\nvoid win(void) { puts("flag{never_use_gets}"); }\nint main(void) { char buf[16]; gets(buf); return 0; }\n',
        },
      ],
    },
  },
];

/**
 * Loads the demo challenges (with their files) into an empty event and opens the site, so a
 * newcomer has something to play. Does nothing when challenges already exist.
 */
export async function seedDemo(ctx: AppContext): Promise<{ created: number }> {
  if ((await listChallengesForAdmin(ctx)).length > 0) return { created: 0 };
  const stored = new Set(await listUploads(ctx));
  for (const c of DEMO_CHALLENGES) {
    const files: string[] = [];
    if (c.file) {
      if (!stored.has(c.file.name)) {
        const zip = makeZip(c.file.entries);
        await saveUpload(ctx, {
          filename: c.file.name,
          mimetype: 'application/zip',
          stream: Readable.from([zip]),
          truncated: () => false,
        });
      }
      files.push(c.file.name);
    }
    const { file: _file, ...input } = c;
    await createChallenge(ctx, { ...input, files });
  }
  await setSiteActive(ctx, true);
  return { created: DEMO_CHALLENGES.length };
}

/**
 * `npm run seed:demo`: the demo challenges. With `-- --event`, also an event under way at the
 * size the pages are measured at (seed-demo-event.ts), on an empty site only.
 */
async function main(): Promise<void> {
  const event = process.argv.includes('--event');
  const { created, made } = await withApp(async (ctx) => {
    const seeded = await seedDemo(ctx);
    return { ...seeded, made: event && seeded.created > 0 ? await seedDemoEvent(ctx, DEMO_EVENT) : null };
  });
  if (!created) {
    process.stdout.write('Challenges already exist: nothing loaded.\n');
    return;
  }
  process.stdout.write(`Loaded ${created} demo challenges and opened the site.\n`);
  if (made) {
    process.stdout.write(
      `Added an event under way: ${made.challenges} challenges, ${made.competitors} competitors, ` +
        `${made.solves} solves over ${DEMO_EVENT.days} days, ${made.announcements} announcements.\n`,
    );
  }
  process.stdout.write('Start it with: npm start\n');
}

if (isEntryPoint(import.meta.url)) {
  void main();
}
