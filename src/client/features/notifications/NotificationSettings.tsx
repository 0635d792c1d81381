import { type FormEvent, useEffect, useState } from "react";
import toast from "react-hot-toast";
import type { NotificationKind } from "../../../shared/constants";
import { QueryState } from "../../components/QueryState";
import { showFailure } from "../../lib/serverMessage";
import { useNotificationSettings, useSaveNotificationSettings } from "./api/settings";

/**
 * Which kinds of notification the member receives: a checkbox per kind (checked: received).
 * Security notices (the decision on one's own deposit or withdrawal) stay checked and disabled.
 * Loaded on its own (lazy) by the notifications page.
 */
export default function NotificationSettings() {
  const query = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const [muted, setMuted] = useState<Set<NotificationKind> | null>(null);
  useEffect(() => {
    if (query.data && muted === null) setMuted(new Set(query.data.kinds.filter((k) => k.muted).map((k) => k.kind)));
  }, [query.data, muted]);

  const toggle = (kind: NotificationKind, receive: boolean) =>
    setMuted((current) => {
      const next = new Set(current ?? []);
      if (receive) next.delete(kind);
      else next.add(kind);
      return next;
    });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync([...(muted ?? [])]);
      setMuted(new Set(answer.kinds.filter((k) => k.muted).map((k) => k.kind)));
      toast.success("Notification settings saved.");
    } catch (error) {
      showFailure(error, "Your notification settings could not be saved.");
    }
  };

  return (
    <section aria-labelledby="notification-settings-title" className="card flex flex-col gap-3">
      <h2 id="notification-settings-title" className="card-title m-0">
        Notification settings
      </h2>
      <QueryState
        query={query}
        error="Your notification settings could not be loaded."
        empty="There is nothing to set."
        isEmpty={(data) => data.kinds.length === 0}
      >
        {(data) => (
          <form onSubmit={onSubmit} aria-label="Notification settings" className="flex flex-col gap-3">
            <fieldset className="m-0 flex flex-col gap-2 border-0 p-0">
              <legend className="muted mb-2 p-0 text-sm">Choose what you want to be told about.</legend>
              {data.kinds.map((k) => {
                const id = `notify-${k.kind}`;
                const receive = !k.mutable || !(muted ?? new Set()).has(k.kind);
                return (
                  <div key={k.kind} className="flex items-start gap-2">
                    <input
                      id={id}
                      type="checkbox"
                      className="focus-ring mt-1"
                      checked={receive}
                      disabled={!k.mutable || save.isPending}
                      aria-describedby={k.mutable ? undefined : `${id}-note`}
                      onChange={(event) => toggle(k.kind, event.currentTarget.checked)}
                    />
                    <label htmlFor={id}>
                      {k.label}
                      {!k.mutable && (
                        <span id={`${id}-note`} className="muted block text-sm">
                          Security notice: always on.
                        </span>
                      )}
                    </label>
                  </div>
                );
              })}
            </fieldset>
            <div>
              <button type="submit" className="btn btn-primary btn-sm focus-ring" disabled={save.isPending || muted === null}>
                {save.isPending ? "Saving..." : "Save settings"}
              </button>
            </div>
          </form>
        )}
      </QueryState>
    </section>
  );
}
