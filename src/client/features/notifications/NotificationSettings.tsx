import { type FormEvent, useEffect, useState } from "react";
import toast from "react-hot-toast";
import type { NotificationKind } from "../../../shared/constants";
import { QueryState } from "../../components/QueryState";
import { showFailure } from "../../lib/serverMessage";
import { useNotificationSettings, useSaveNotificationSettings } from "./api/settings";

/** Kinds of `kinds` for which `pick` holds, as a set. */
type KindSetting = { kind: NotificationKind; muted: boolean; mailed?: boolean; mailable?: boolean };
const setOf = (kinds: KindSetting[], pick: (k: KindSetting) => boolean) =>
  new Set(kinds.filter(pick).map((k) => k.kind));

/** Mailed by the member's choice (a security mail is mailed whatever is chosen). */
const chosenByMail = (k: KindSetting) => k.mailed === true && k.mailable !== false;

/** One set with `kind` in it or not. */
const toggled = (current: Set<NotificationKind> | null, kind: NotificationKind, on: boolean) => {
  const next = new Set(current ?? []);
  if (on) next.add(kind);
  else next.delete(kind);
  return next;
};

/**
 * Which kinds of notification the member receives: a checkbox per kind (checked: received).
 * Security notices (the decision on one's own deposit or withdrawal) stay checked and disabled.
 * With a server that mails notifications, a second checkbox per kind: also by mail (security
 * mails checked and disabled). Loaded on its own (lazy) by the notifications page.
 */
export default function NotificationSettings() {
  const query = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const [muted, setMuted] = useState<Set<NotificationKind> | null>(null);
  const [mailed, setMailed] = useState<Set<NotificationKind> | null>(null);
  useEffect(() => {
    if (query.data && muted === null) {
      setMuted(setOf(query.data.kinds, (k) => k.muted));
      setMailed(setOf(query.data.kinds, chosenByMail));
    }
  }, [query.data, muted]);
  // An earlier server says nothing of mail: the form then neither shows nor sends it.
  const mailing = query.data?.kinds.some((k) => k.mailable !== undefined) ?? false;

  const toggle = (kind: NotificationKind, receive: boolean) => setMuted((current) => toggled(current, kind, !receive));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync({ muted: [...(muted ?? [])], ...(mailing ? { mailed: [...(mailed ?? [])] } : {}) });
      setMuted(setOf(answer.kinds, (k) => k.muted));
      setMailed(setOf(answer.kinds, chosenByMail));
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
                    <label htmlFor={id} className="flex-1">
                      {k.label}
                      {!k.mutable && (
                        <span id={`${id}-note`} className="muted block text-sm">
                          Security notice: always on.
                        </span>
                      )}
                    </label>
                    {mailing && (
                      <span className="flex items-center gap-1.5 text-sm">
                        <input
                          id={`mail-${k.kind}`}
                          type="checkbox"
                          className="focus-ring"
                          checked={k.mailable === false || (receive && (mailed ?? new Set()).has(k.kind))}
                          disabled={k.mailable === false || !receive || save.isPending}
                          aria-label={`${k.label}: also by mail`}
                          onChange={(event) => {
                            const on = event.currentTarget.checked;
                            setMailed((current) => toggled(current, k.kind, on));
                          }}
                        />
                        <label htmlFor={`mail-${k.kind}`} aria-hidden="true" className="muted">
                          {k.mailable === false ? "Always mailed" : "By mail"}
                        </label>
                      </span>
                    )}
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
