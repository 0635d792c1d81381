import { render } from "@testing-library/react";
import toast from "react-hot-toast";
import { MemoryRouter, useLocation } from "react-router";
import { Providers } from "../client/app/Providers";
import { createQueryClient } from "../client/app/queryClient";
import { AppRoutes } from "../client/app/routes";
import { setToken } from "../client/lib/session";
import { resetConnection } from "../client/lib/connection";

/** Shows the router's current path, so a test can assert where a redirect landed. */
function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Renders the whole client app (providers, routes, guard, layout) at `path`, as the browser
 * entry does, with or without a stored token. Import after "./dom" and call useDom().
 */
export function renderApp(path: string, { token = null }: { token?: string | null } = {}) {
  toast.remove();
  // The connection's state lives in the shared store: another test's outage must not show here.
  resetConnection();
  setToken(token);
  const client = createQueryClient();
  const result = render(
    <Providers client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Where />
      </MemoryRouter>
    </Providers>,
  );
  return { ...result, client, location: () => result.getByTestId("location").textContent };
}
