import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

/**
 * Entry of the client-routed pages (/login, /register, /userDashboard/*). The server shell
 * has already painted a frame in #root; React replaces it (no hydration: the shell is a
 * placeholder, not this tree).
 */
const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
