import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '../lib/query';
import { prefetchForPage } from './prefetch';
import { AppRoutes } from './router';

function startClient() {
  const client = createQueryClient();
  prefetchForPage(client, window.location.pathname);
  return client;
}

export function App() {
  const [client] = useState(startClient);
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
