import type { Location, NavigateOptions } from 'react-router';

/**
 * A change of the URL that stays on the same page (the admin panel's `?tab=`): the page keeps the
 * focus and the scroll position where they are, instead of moving them as a new page does.
 */
export const SAME_PAGE: NavigateOptions = { state: { samePage: true }, preventScrollReset: true };

export function isSamePage(location: Location): boolean {
  const state = location.state as { samePage?: unknown } | null;
  return state?.samePage === true;
}
