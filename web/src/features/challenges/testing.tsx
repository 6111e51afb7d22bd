import type { ReactElement } from 'react';
import { renderAt } from '../../test/render';

/** Test helpers for this feature's components: the shared fake server and factories. */
export { json, mockApi, type Handler } from '../../test/api-mock';
export { makeChallenge, makeUser } from '../../test/factories';

export function renderPage(ui: ReactElement, route = '/') {
  return renderAt(ui, route);
}
