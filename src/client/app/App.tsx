import { useState } from "react";
import { BrowserRouter } from "react-router";
import { Providers } from "./Providers";
import { createQueryClient } from "./queryClient";
import { AppRoutes } from "./routes";

export function App() {
  const [client] = useState(createQueryClient);
  return (
    <Providers client={client}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
