import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { FIRST_VIEW_PAGES, seedFirstView, type FirstViewSeed } from './app/first-view';
import { AppRoutes, preloadPage } from './app/router';
import { createQueryClient } from './lib/query';
import { setServerSanitizer } from './lib/sanitize';
import { setServerVisibleText } from './features/challenges/filter';

/**
 * The server's renderer of a page's first view (built by `vite build --ssr` into web/dist-ssr,
 * loaded by server/src/modules/first-view): the app's own routes and components, from the
 * answers in `seed`, as the HTML that goes inside #root. The browser hydrates it (main.tsx) from
 * the same seed, so its first render is this one.
 */
export { FIRST_VIEW_PAGES, type FirstViewSeed };

/** The server's sanitiser (the one HTML policy) stands in for DOMPurify, which needs a DOM. */
export function setSanitizer(sanitize: (html: string) => string): void {
  setServerSanitizer(sanitize);
}

/** The server's reading of stored HTML's visible text (a card's preview) stands in for DOMParser. */
export function setVisibleText(visibleText: (html: string) => string): void {
  setServerVisibleText(visibleText);
}

/** Loads the code of every first-view page, once, before the first render. */
export async function prepare(): Promise<void> {
  await Promise.all(FIRST_VIEW_PAGES.map((p) => preloadPage(p)));
}

export function renderFirstView(url: string, seed: FirstViewSeed): string {
  const client = createQueryClient();
  seedFirstView(client, seed);
  const html = renderToString(
    <StrictMode>
      <QueryClientProvider client={client}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  client.clear();
  return html;
}
