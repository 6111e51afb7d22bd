import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createQueryClient } from '../lib/query';

/** Shows the router's location so a test can see navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Renders a page with a fresh query client and a router at `route`; `seed` fills the client's
 * cache first (what a page reads before its first paint, such as the signed-in user).
 */
export function renderAt(ui: ReactElement, route: string, seed?: (client: QueryClient) => void) {
  const client = createQueryClient();
  seed?.(client);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {ui}
                <LocationProbe />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
