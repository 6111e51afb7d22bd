import type { AdminChallenge, ChallengeInput } from '@ctf/contract';

/**
 * A challenge's official solution (issue 32) in challenge.yml, our own key `solution`: either the
 * Markdown itself (visibility 'hidden'), or a mapping `{content, visibility}` with visibility
 * 'hidden', 'solved' or 'after_end'. Absent means none, like every absent key: an update removes
 * it. A solution's files are not carried (they are the Upload tab's stored files). The admin
 * form's schema checks the content and the visibility after.
 */
export function readSolutionYml(
  data: Record<string, unknown>,
  err: (path: (string | number)[], message: string) => void,
): ChallengeInput['solution'] {
  const value = data.solution;
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { content: value, visibility: 'hidden' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    err(['solution'], "'solution' must be Markdown text or a mapping {content, visibility}.");
    return null;
  }
  const { content, visibility, ...rest } = value as Record<string, unknown>;
  for (const key of Object.keys(rest)) err(['solution', key], `Unknown key 'solution.${key}'.`);
  if (typeof content !== 'string') {
    err(['solution', 'content'], "'solution.content' must be Markdown text.");
    return null;
  }
  const known = ['hidden', 'solved', 'after_end'] as const;
  const seen = visibility ?? 'hidden';
  if (typeof seen !== 'string' || !(known as readonly string[]).includes(seen)) {
    err(['solution', 'visibility'], "'solution.visibility' must be hidden, solved or after_end.");
    return null;
  }
  return { content, visibility: seen as (typeof known)[number] };
}

/** The export's `solution` key (content and visibility; its files stay on the site). */
export function solutionYml(solution: AdminChallenge['solution']): Record<string, unknown> {
  return solution ? { solution: { content: solution.content, visibility: solution.visibility } } : {};
}
