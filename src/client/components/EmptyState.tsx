import type { ReactNode } from "react";

/** What a list shows when it has nothing: the spec's sentence, centred in a card. */
export function EmptyState({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="card flex flex-col items-center gap-3 py-10 text-center">
      <p className="muted">{message}</p>
      {children}
    </div>
  );
}
