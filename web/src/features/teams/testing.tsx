import type { ReactElement } from 'react';
import { renderAt } from '../../test/render';

/** Test helpers for the team components: the shared fake server and factories. */
export { json, mockApi, type Handler } from '../../test/api-mock';
export { makeTeam, makeUser } from '../../test/factories';

export function renderPage(ui: ReactElement, route = '/profile?mode=1') {
  return renderAt(ui, route);
}
