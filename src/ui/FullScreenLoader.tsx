/** While the signed-in user loads. The server's dashboard shell renders it too, before any JS. */
export function FullScreenLoader() {
  return (
    <div role="status" className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-black text-fg">
      <span aria-hidden="true" className="size-12 animate-spin rounded-pill border-4 border-line-strong border-t-figure-blue motion-reduce:animate-none" />
      <span className="text-lg font-medium">Loading, please wait...</span>
    </div>
  );
}
