import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationKind } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";

/** Not under ["notifications"], which the live stream invalidates on every new notification. */
export const notificationSettingsKey = ["notification-settings"] as const;

/** Which kinds the member receives (GET /api/user/notifications/settings). */
export const useNotificationSettings = () =>
  useQuery({
    queryKey: notificationSettingsKey,
    queryFn: ({ signal }) => call(MEMBER.notificationSettings, { signal }),
  });

/** Saves the muted kinds (all of them), and the mailed ones when given; the answer is the new settings. */
export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    // Quiet: the settings form shows a failure itself (one toast, not two).
    mutationFn: (settings: { muted: NotificationKind[]; mailed?: NotificationKind[] }) => call(MEMBER.saveNotificationSettings, { body: settings, quiet: true }),
    onSuccess: (answer) => client.setQueryData(notificationSettingsKey, answer),
  });
}
