import { Link, useLocation } from "react-router";
import { PAGES } from "../../shared/pages";

/** An unknown path under /userDashboard: said plainly, with the way back. */
export default function DashboardNotFound() {
  const { pathname } = useLocation();
  return (
    <section className="card mx-auto mt-8 max-w-lg text-center">
      <p className="m-0 text-5xl font-extrabold heading-gradient">404</p>
      <h1 className="m-0 mt-3 text-2xl font-bold">Page not found</h1>
      <p className="m-0 mt-2 break-words muted">There is no dashboard page at {pathname}.</p>
      <Link to={PAGES.dashboard} className="btn-primary mt-6">Back to your profile</Link>
    </section>
  );
}
