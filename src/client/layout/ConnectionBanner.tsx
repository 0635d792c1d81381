/** The words of the banner, for tests and for anyone who changes them. */
export const UNREACHABLE = "Can't reach the server, retrying...";

/**
 * Said politely (role=status) while the current-user query fails for another reason than a
 * 401: the session is kept, the query keeps trying, and the banner goes once it answers.
 * `overlay`: above the full-screen loader, before the first answer.
 */
export function ConnectionBanner({ overlay = false }: { overlay?: boolean }) {
  const place = overlay ? "fixed inset-x-0 top-0 z-60" : "";
  return (
    <div role="status" className={`${place} border-b border-pending/40 bg-ink-deep px-4 py-2 text-center text-sm text-pending`}>
      {UNREACHABLE}
    </div>
  );
}
