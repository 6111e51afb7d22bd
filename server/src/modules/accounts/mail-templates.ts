import type { Mail } from './mail.repo.js';

/** The accounts' mails: plain text and simple HTML, each naming the event. */

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function mail(
  to: string,
  event: string,
  subject: string,
  lines: string[],
  link?: { url: string; label: string },
): Mail {
  const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : []), '', `-- ${event}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<h1 style="font-size:1.2em">${escapeHtml(event)}</h1>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>\n<p style="font-size:.9em;color:#555">${escapeHtml(link.url)}</p>` : ''}
</body></html>`;
  return { to, subject: `${event}: ${subject}`, text, html };
}

export function confirmationMail(to: string, event: string, username: string, url: string): Mail {
  return mail(
    to,
    event,
    'confirm your e-mail address',
    [
      `Hello ${username},`,
      `someone (we hope you) signed up for ${event} with this address. Confirm it to sign in; the link works for 24 hours, once.`,
      'If it was not you, ignore this mail.',
    ],
    { url, label: 'Confirm my address' },
  );
}

export function resetMail(to: string, event: string, url: string): Mail {
  return mail(
    to,
    event,
    'reset your password',
    [
      `Someone (we hope you) asked to reset the password of your ${event} account.`,
      'The link works for one hour, once; setting a new password signs you out everywhere.',
      'If it was not you, ignore this mail: your password stays as it is.',
    ],
    { url, label: 'Choose a new password' },
  );
}

/** A sign-up with an address that already has an account: no second account, and no leak. */
export function alreadyRegisteredMail(to: string, event: string, loginUrl: string, resetUrl: string): Mail {
  return mail(
    to,
    event,
    'you already have an account',
    [
      `Someone (we hope you) tried to sign up for ${event} with this address, which an account already uses.`,
      'Sign in the way you did before (and link another way in from your profile), or reset your password.',
      `Forgot your password? ${resetUrl}`,
    ],
    { url: loginUrl, label: 'Sign in' },
  );
}
