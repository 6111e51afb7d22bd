import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { App } from './app/App';
import { prefetchForPage } from './app/prefetch';
import { preloadPage } from './app/router';
import { createQueryClient } from './lib/query';

// index.html already shows the layout and the loading notice. Meanwhile: the opened page's calls
// start at once, its code loads, and then the first render draws the page itself.
const client = createQueryClient();
prefetchForPage(client, window.location.pathname);
void preloadPage(window.location.pathname).then(() => {
  // A transition: React renders in slices and leaves the main thread free between them, so a
  // phone stays responsive while the page is first drawn.
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App client={client} />
      </StrictMode>,
    );
  });
});
