import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { App } from './app/App';
import { personaliseFirstView, readFirstViewSeed, runAfterFirstView, seedFirstView } from './app/first-view';
import { prefetchForPage } from './app/prefetch';
import { preloadPage } from './app/router';
import { createQueryClient } from './lib/query';

const client = createQueryClient();
const root = document.getElementById('root')!;
const seed = readFirstViewSeed();

if (seed) {
  // The server drew this page's first view (its largest paint) from the answers in the seed: the
  // query cache starts with them, so the hydrating render is the server's and asks for none of
  // them again. What is the caller's own (the navbar's user, "My position", marks) is asked for
  // once the page is live.
  seedFirstView(client, seed);
  runAfterFirstView(() => {
    prefetchForPage(client, window.location.pathname);
    personaliseFirstView(client, seed);
  });
  void preloadPage(window.location.pathname).then(() => {
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App client={client} />
        </StrictMode>,
        {
          // A hydration mismatch is a defect (the browser redraws the page): say where it was.
          onRecoverableError: (error, info) => console.error(error, info.componentStack),
        },
      );
    });
  });
} else {
  // index.html already shows the layout and the loading notice. Meanwhile: the opened page's calls
  // start at once, its code loads, and then the first render draws the page itself.
  prefetchForPage(client, window.location.pathname);
  void preloadPage(window.location.pathname).then(() => {
    // A transition: React renders in slices and leaves the main thread free between them, so a
    // phone stays responsive while the page is first drawn.
    startTransition(() => {
      createRoot(root).render(
        <StrictMode>
          <App client={client} />
        </StrictMode>,
      );
    });
  });
}
