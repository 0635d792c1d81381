-- Unwritten since a member's notifications lock became an advisory lock (src/core/notifications.ts,
-- memberLock); kept one release for the servers of the release before, which upserted it.
DROP TABLE "notification_heads";