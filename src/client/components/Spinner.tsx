/** A loading indicator that screen readers announce. The ring stops spinning for reduced motion. */
export function Spinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-8 muted">
      <span
        aria-hidden="true"
        className="inline-block size-6 rounded-full border-2 border-current border-t-transparent animate-spin motion-reduce:animate-none"
      />
      <span>{label}</span>
    </div>
  );
}
